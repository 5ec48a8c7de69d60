/* renderer/gl/accessory.c - accessories on the GPU: one interleaved vertex
 * buffer per mesh (position, normal, uv, vertex colour as in mmd_accessory_vertex),
 * its textures, and the placement -> world matrix of each frame (parent bone
 * world x T x Rz x Ry x Rx x S x 10, core/accessory.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

static bool is_screen(const char *tex)
{
    const char *b = tex;
    for (const char *p = tex; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return !strcasecmp(b, "screen.bmp");
}

/* The live screen texture: black until the first frame is copied in. A
 * frame-sized texture, so it counts against the texture budget (what
 * --max-memory leaves, renderer/cli/memory.h); over it: no screen (white). */
static GLuint screen_texture(mmd_renderer *r)
{
    if (!r->tex_screen) {
        size_t n = (size_t)r->o.width * (size_t)r->o.height * 4;
        if (!mmd_texlib_reserve(r->texlib, n)) {
            mmd_warnf(r->o.quiet ? NULL : r->o.warn, r->o.warn_ctx,
                      "screen.bmp (%.1f MiB) is over the texture memory budget (%.1f MiB; --texture-memory, "
                      "--max-memory): drawn white", (double)n / (1 << 20), (double)r->o.texture_budget / (1 << 20));
            return 0;
        }
        uint8_t *black = calloc(n ? n : 4, 1);
        if (!black)
            return 0; /* the reserved bytes stay counted: the budget errs on the safe side */
        for (size_t i = 3; i < n; i += 4)
            black[i] = 255;
        r->tex_screen = mmd_tex_upload_rgba(r, r->o.width, r->o.height, black, true, false);
        free(black);
    }
    return r->tex_screen;
}

static void load_textures(mmd_renderer *r, gpu_accessory *g, const char *dir)
{
    char owner[600];
    snprintf(owner, sizeof owner, "accessory \"%s\"", g->name);
    for (uint32_t k = 0; k < g->mesh->material_count; k++) {
        const mmd_accessory_material *m = &g->mesh->materials[k];
        gpu_acc_material *gm = &g->mats[k];
        if (m->texture[0] && is_screen(m->texture)) {
            gm->tex = screen_texture(r);
            gm->screen = true;
        } else if (m->texture[0]) {
            gm->tex = mmd_tex_file(r, dir, m->texture, true, true, owner);
        }
        if (m->sphere[0] && m->sphere_mode != MMD_SPHERE_NONE)
            gm->sphere = mmd_tex_file(r, dir, m->sphere, false, true, owner);
    }
}

mmd_status mmd_renderer_add_accessory(mmd_renderer *r, const mmd_accessory_mesh *mesh, const char *dir,
                                      const char *name, mmd_error *err)
{
    if (r->acc_count == r->acc_cap) {
        size_t cap = r->acc_cap ? r->acc_cap * 2 : 4;
        gpu_accessory *n = realloc(r->accs, cap * sizeof *n);
        if (!n)
            return mmd_fail(err, MMD_E_NOMEM, "out of memory for accessory \"%s\"", name ? name : "");
        r->accs = n;
        r->acc_cap = cap;
    }
    gpu_accessory *g = &r->accs[r->acc_count];
    memset(g, 0, sizeof *g);
    g->mesh = mesh;
    g->name = strdup(name ? name : "");
    g->mats = calloc(mesh->material_count ? mesh->material_count : 1, sizeof *g->mats);
    if (!g->name || !g->mats) {
        free(g->name);
        free(g->mats);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory for accessory \"%s\"", name ? name : "");
    }
    const mmd_gl *gl = r->gl;
    gl->GenVertexArrays(1, &g->vao);
    gl->BindVertexArray(g->vao);
    gl->GenBuffers(1, &g->vbo);
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    gl->BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)mesh->vertex_count * sizeof(mmd_accessory_vertex)), mesh->vertices,
                   GL_STATIC_DRAW);
    GLsizei st = (GLsizei)sizeof(mmd_accessory_vertex);
    gl->VertexAttribPointer(MMD_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, st, (const void *)offsetof(mmd_accessory_vertex, position));
    gl->VertexAttribPointer(MMD_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, st, (const void *)offsetof(mmd_accessory_vertex, normal));
    gl->VertexAttribPointer(MMD_ATTR_UV, 2, GL_FLOAT, GL_FALSE, st, (const void *)offsetof(mmd_accessory_vertex, uv));
    gl->VertexAttribPointer(MMD_ATTR_ADD_UV1, 4, GL_FLOAT, GL_FALSE, st, (const void *)offsetof(mmd_accessory_vertex, color));
    for (int a = MMD_ATTR_POSITION; a <= MMD_ATTR_ADD_UV1; a++)
        gl->EnableVertexAttribArray((GLuint)a);
    gl->VertexAttrib4f(MMD_ATTR_EDGE, 0, 0, 0, 0);
    gl->GenBuffers(1, &g->ebo);
    gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    gl->BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)mesh->index_count * 4), mesh->indices, GL_STATIC_DRAW);
    gl->BindVertexArray(0);
    load_textures(r, g, dir);
    mmd_accessory_place_default(&g->a.place);
    g->a.parent_slot = -1;
    mmd_accessory_world(&g->a.place, NULL, g->world);
    r->acc_count++;
    if (gl->GetError() != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "GL error while uploading accessory \"%s\"", g->name);
    return MMD_OK;
}

void mmd_renderer_place_accessories(mmd_renderer *r, const mmd_render_accessory *a, size_t count)
{
    for (size_t i = 0; i < count && i < r->acc_count; i++) {
        r->accs[i].a = a[i];
        mmd_accessory_world(&a[i].place, NULL, r->accs[i].world);
    }
}

void mmd_accessories_update_worlds(mmd_renderer *r, mmd_anim *const *anims, size_t count)
{
    for (size_t i = 0; i < r->acc_count; i++) {
        gpu_accessory *g = &r->accs[i];
        const float *parent = NULL;
        int s = g->a.parent_slot;
        if (s >= 0 && (size_t)s < count && s < (int)r->model_count && g->a.parent_bone >= 0 &&
            (uint32_t)g->a.parent_bone < r->models[s].m->bone_count) {
            const float *w = mmd_anim_world(anims[s]);
            parent = w ? w + (size_t)g->a.parent_bone * 16 : NULL;
        }
        mmd_accessory_world(&g->a.place, parent, g->world);
    }
}

bool mmd_accessories_any_visible(const mmd_renderer *r)
{
    for (size_t i = 0; i < r->acc_count; i++)
        if (r->accs[i].a.place.visible && r->accs[i].mesh->index_count)
            return true;
    return false;
}

void mmd_accessories_free(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = 0; i < r->acc_count; i++) {
        gpu_accessory *g = &r->accs[i];
        /* material textures come from the renderer's texture cache (textures.c), which deletes them */
        gl->DeleteBuffers(1, &g->vbo);
        gl->DeleteBuffers(1, &g->ebo);
        gl->DeleteVertexArrays(1, &g->vao);
        free(g->mats);
        free(g->name);
    }
    for (int i = 0; i < ACC_VARIANTS; i++)
        if (r->prog_acc[i])
            gl->DeleteProgram(r->prog_acc[i]);
    if (r->tex_screen)
        gl->DeleteTextures(1, &r->tex_screen);
    free(r->accs);
    r->accs = NULL;
    r->acc_count = r->acc_cap = 0;
}
