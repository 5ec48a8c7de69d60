/* renderer/gl/pass_edge.c - MMD's edges: the inverted hull of each edge
 * material, offset along the normal by a width that keeps its size on screen. */

#include "renderer/gl/render_internal.h"

/* Edge width: offset = n * vertex scale * material size * k with
 * k = |eye - bone#1| * clamp(fov/30, 0, 1) * 0.001 * EDGE_K (nanoem's rule).
 * With EDGE_K = 1 a 1.0 edge is about 2 px wide at 1080p (1.3 px at 720p),
 * whatever the camera distance, which is what MMD shows. */
#define EDGE_K 1.0f

/* The edge program and the inverted hull's culling (again after an effect drew). */
static void edge_state(mmd_renderer *r, const gpu_model *g, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    gl->UseProgram(r->prog_flat);
    gl->UniformMatrix4fv(r->u_flat[F_WORLD], 1, GL_FALSE, f->world);
    gl->UniformMatrix4fv(r->u_flat[F_VIEWPROJ], 1, GL_FALSE, f->viewproj);
    gl->Enable(GL_CULL_FACE);
    gl->CullFace(GL_FRONT);
    gl->BindVertexArray(g->vao);
}

void mmd_pass_edges(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    const mmd_material_state *ms = in->materials ? in->materials : g->base;
    float dx = f->v->eye[0] - in->edge_origin[0], dy = f->v->eye[1] - in->edge_origin[1],
          dz = f->v->eye[2] - in->edge_origin[2];
    float fovk = f->v->fov / 30.0f;
    fovk = fovk < 0 ? 0 : (fovk > 1 ? 1 : fovk);
    float k = sqrtf(dx * dx + dy * dy + dz * dz) * fovk * 0.001f * EDGE_K * g->look.edge_width;
    if (!(k > 0.0f))
        return; /* edge width 0 (a project's model setting): no hull */
    edge_state(r, g, f);
    size_t off = 0;
    for (uint32_t i = 0; i < g->m->material_count && !mmd_render_cancelled(r); i++) {
        const mmd_material *mt = &g->m->materials[i];
        const mmd_material_state *s = &ms[i];
        size_t n = mt->index_count, at = off;
        off += n;
        if (!(mt->flags & MMD_MAT_EDGE) || (mt->flags & (MMD_MAT_POINTS | MMD_MAT_LINES)) ||
            s->diffuse[3] <= 0.0f || s->edge_size <= 0.0f || s->edge_color[3] <= 0.0f || n == 0)
            continue;
        if (mmd_pass_hook(r, (size_t)(g - r->models), i, at, n, MMD_FX_PASS_EDGE, s, false, s->edge_size * k, f)) {
            edge_state(r, g, f); /* an effect drew it (render.h) */
            continue;
        }
        gl->Uniform1f(r->u_flat[F_EDGE], s->edge_size * k);
        float color[4] = {s->edge_color[0], s->edge_color[1], s->edge_color[2], s->edge_color[3]};
        if (r->o.pmd_edge_color_set && g->m->format == MMD_FORMAT_PMD) /* PMD has no material morphs */
            memcpy(color, r->o.pmd_edge_color, sizeof r->o.pmd_edge_color);
        gl->Uniform4fv(r->u_flat[F_COLOR], 1, color);
        gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
    }
    gl->CullFace(GL_BACK);
}
