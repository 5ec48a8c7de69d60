/* core/pmx_write.c - PMX 2.0/2.1 writer and model builders (see pmx_write.h). */
#include "core/pmx_write.h"

#include <stdlib.h>
#include <string.h>

/* ---- growable output buffer with a sticky error ---- */

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
    mmd_status st;
    mmd_error *err;
    const char *section;
    int64_t item;
    int utf8;
    int vsz, tsz, msz, bsz, morsz, rsz;
} wbuf;

static void wfail(wbuf *w, mmd_status st, const char *msg, long long v)
{
    if (w->st != MMD_OK)
        return;
    w->st = st;
    mmd_error_set(w->err, st, w->section, w->item, -1, "%s %lld", msg, v);
}

static uint8_t *wreserve(wbuf *w, size_t n)
{
    if (w->st != MMD_OK)
        return NULL;
    if (n > w->cap - w->len) {
        size_t nc = w->cap ? w->cap : 4096;
        while (nc - w->len < n) {
            if (nc > SIZE_MAX / 2) {
                wfail(w, MMD_E_NOMEM, "output too large:", (long long)n);
                return NULL;
            }
            nc *= 2;
        }
        uint8_t *np = realloc(w->p, nc);
        if (!np) {
            wfail(w, MMD_E_NOMEM, "out of memory growing to", (long long)nc);
            return NULL;
        }
        w->p = np;
        w->cap = nc;
    }
    uint8_t *d = w->p + w->len;
    w->len += n;
    return d;
}

static void w_bytes(wbuf *w, const void *s, size_t n)
{
    uint8_t *d = wreserve(w, n);
    if (d && n)
        memcpy(d, s, n);
}

static void w_u8(wbuf *w, uint8_t v) { w_bytes(w, &v, 1); }

static void w_u16(wbuf *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    w_bytes(w, b, 2);
}

static void w_u32(wbuf *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    w_bytes(w, b, 4);
}

static void w_i32(wbuf *w, int32_t v) { w_u32(w, (uint32_t)v); }

static void w_f(wbuf *w, const float *v, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        w_u32(w, u);
    }
}

static void w_f1(wbuf *w, float v) { w_f(w, &v, 1); }

/* Signed reference (-1 = none). */
static void w_idx(wbuf *w, int width, int32_t v)
{
    switch (width) {
    case 1:
        if (v < -128 || v > 127)
            wfail(w, MMD_E_BAD_INDEX, "index does not fit 1 byte:", v);
        w_u8(w, (uint8_t)(int8_t)v);
        break;
    case 2:
        if (v < -32768 || v > 32767)
            wfail(w, MMD_E_BAD_INDEX, "index does not fit 2 bytes:", v);
        w_u16(w, (uint16_t)(int16_t)v);
        break;
    default: w_i32(w, v); break;
    }
}

static void w_vidx(wbuf *w, uint32_t v)
{
    switch (w->vsz) {
    case 1:
        if (v > 0xFF)
            wfail(w, MMD_E_BAD_INDEX, "vertex index does not fit 1 byte:", v);
        w_u8(w, (uint8_t)v);
        break;
    case 2:
        if (v > 0xFFFF)
            wfail(w, MMD_E_BAD_INDEX, "vertex index does not fit 2 bytes:", v);
        w_u16(w, (uint16_t)v);
        break;
    default:
        if (v > INT32_MAX)
            wfail(w, MMD_E_BAD_INDEX, "vertex index does not fit 4 bytes:", (long long)v);
        w_u32(w, v);
        break;
    }
}

/* UTF-8 -> UTF-16LE without iconv (invalid bytes become U+FFFD). */
static void w_text(wbuf *w, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    if (n > MMD_MAX_TEXT_BYTES) {
        wfail(w, MMD_E_LIMIT, "text too long:", (long long)n);
        return;
    }
    if (w->utf8) {
        w_u32(w, (uint32_t)n);
        w_bytes(w, s, n);
        return;
    }
    size_t at = w->len;
    w_u32(w, 0);
    const uint8_t *u = (const uint8_t *)s;
    size_t i = 0, out = 0;
    while (i < n && w->st == MMD_OK) {
        uint32_t cp;
        uint8_t c = u[i];
        size_t k;
        if (c < 0x80) {
            cp = c;
            k = 1;
        } else if ((c & 0xE0) == 0xC0 && i + 1 < n) {
            cp = ((uint32_t)(c & 0x1F) << 6) | (u[i + 1] & 0x3F);
            k = 2;
        } else if ((c & 0xF0) == 0xE0 && i + 2 < n) {
            cp = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(u[i + 1] & 0x3F) << 6) | (u[i + 2] & 0x3F);
            k = 3;
        } else if ((c & 0xF8) == 0xF0 && i + 3 < n) {
            cp = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(u[i + 1] & 0x3F) << 12) |
                 ((uint32_t)(u[i + 2] & 0x3F) << 6) | (u[i + 3] & 0x3F);
            k = 4;
        } else {
            cp = 0xFFFD;
            k = 1;
        }
        i += k;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            w_u16(w, (uint16_t)(0xD800 + (cp >> 10)));
            w_u16(w, (uint16_t)(0xDC00 + (cp & 0x3FF)));
            out += 4;
        } else {
            w_u16(w, (uint16_t)cp);
            out += 2;
        }
    }
    if (w->st == MMD_OK) {
        w->p[at] = (uint8_t)out;
        w->p[at + 1] = (uint8_t)(out >> 8);
        w->p[at + 2] = (uint8_t)(out >> 16);
        w->p[at + 3] = (uint8_t)(out >> 24);
    }
}

static int width_for(uint32_t count, int vertex, uint8_t forced, wbuf *w)
{
    int need = vertex ? (count <= 256 ? 1 : count <= 65536 ? 2 : 4) : (count <= 128 ? 1 : count <= 32768 ? 2 : 4);
    if (!forced)
        return need;
    if (forced != 1 && forced != 2 && forced != 4) {
        wfail(w, MMD_E_BAD_HEADER, "index size must be 1, 2 or 4, not", forced);
        return 4;
    }
    if (forced < need) {
        wfail(w, MMD_E_LIMIT, "forced index size too small for count", count);
        return 4;
    }
    return forced;
}

static void sect(wbuf *w, const char *s)
{
    w->section = s;
    w->item = -1;
}

static void write_vertices(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.vertex");
    w_u32(w, m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_vertex *v = &m->vertices[i];
        w_f(w, v->position, 3);
        w_f(w, v->normal, 3);
        w_f(w, v->uv, 2);
        for (int k = 0; k < m->additional_uv_count; k++)
            w_f(w, v->add_uv[k], 4);
        w_u8(w, v->weight_type);
        switch (v->weight_type) {
        case MMD_WEIGHT_BDEF1: w_idx(w, w->bsz, v->bones[0]); break;
        case MMD_WEIGHT_BDEF2:
        case MMD_WEIGHT_SDEF:
            w_idx(w, w->bsz, v->bones[0]);
            w_idx(w, w->bsz, v->bones[1]);
            w_f(w, v->weights, 1);
            if (v->weight_type == MMD_WEIGHT_SDEF) {
                w_f(w, v->sdef_c, 3);
                w_f(w, v->sdef_r0, 3);
                w_f(w, v->sdef_r1, 3);
            }
            break;
        case MMD_WEIGHT_BDEF4:
        case MMD_WEIGHT_QDEF:
            for (int k = 0; k < 4; k++)
                w_idx(w, w->bsz, v->bones[k]);
            w_f(w, v->weights, 4);
            break;
        default: wfail(w, MMD_E_BAD_VALUE, "weight type", v->weight_type); break;
        }
        w_f1(w, v->edge_scale);
    }
}

static void write_faces_textures(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.face");
    w_u32(w, m->index_count);
    for (uint32_t i = 0; i < m->index_count && w->st == MMD_OK; i++)
        w_vidx(w, m->indices[i]);

    sect(w, "pmx.texture");
    w_u32(w, m->texture_count);
    for (uint32_t i = 0; i < m->texture_count; i++)
        w_text(w, m->textures[i]);
}

static void write_materials(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.material");
    w_u32(w, m->material_count);
    for (uint32_t i = 0; i < m->material_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_material *mt = &m->materials[i];
        w_text(w, mt->name);
        w_text(w, mt->name_en);
        w_f(w, mt->diffuse, 4);
        w_f(w, mt->specular, 3);
        w_f1(w, mt->specular_power);
        w_f(w, mt->ambient, 3);
        w_u8(w, mt->flags);
        w_f(w, mt->edge_color, 4);
        w_f1(w, mt->edge_size);
        w_idx(w, w->tsz, mt->texture);
        w_idx(w, w->tsz, mt->sphere_texture);
        w_u8(w, mt->sphere_mode);
        w_u8(w, mt->toon_shared ? 1 : 0);
        if (mt->toon_shared) {
            if (mt->toon < -1 || mt->toon > 9)
                wfail(w, MMD_E_BAD_VALUE, "shared toon out of range:", mt->toon);
            w_u8(w, mt->toon < 0 ? 0xFF : (uint8_t)mt->toon); /* -1 -> 0xFF (none) */
        } else {
            w_idx(w, w->tsz, mt->toon);
        }
        w_text(w, mt->memo);
        w_u32(w, mt->index_count);
    }
}

static void write_bones(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.bone");
    w_u32(w, m->bone_count);
    for (uint32_t i = 0; i < m->bone_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_bone *b = &m->bones[i];
        w_text(w, b->name);
        w_text(w, b->name_en);
        w_f(w, b->position, 3);
        w_idx(w, w->bsz, b->parent);
        w_i32(w, b->layer);
        w_u16(w, b->flags);
        if (b->flags & MMD_BONE_TAIL_IS_BONE)
            w_idx(w, w->bsz, b->tail_bone);
        else
            w_f(w, b->tail_offset, 3);
        if (b->flags & (MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE)) {
            w_idx(w, w->bsz, b->append_parent);
            w_f1(w, b->append_ratio);
        }
        if (b->flags & MMD_BONE_FIXED_AXIS)
            w_f(w, b->fixed_axis, 3);
        if (b->flags & MMD_BONE_LOCAL_AXES) {
            w_f(w, b->local_x, 3);
            w_f(w, b->local_z, 3);
        }
        if (b->flags & MMD_BONE_EXTERNAL_PARENT)
            w_i32(w, b->external_key);
        if (b->flags & MMD_BONE_IK) {
            w_idx(w, w->bsz, b->ik_target);
            w_i32(w, b->ik_loop);
            w_f1(w, b->ik_limit_angle);
            w_u32(w, b->ik_link_count);
            for (uint32_t k = 0; k < b->ik_link_count; k++) {
                const mmd_ik_link *l = &b->ik_links[k];
                w_idx(w, w->bsz, l->bone);
                w_u8(w, l->has_limit ? 1 : 0);
                if (l->has_limit) {
                    w_f(w, l->lower, 3);
                    w_f(w, l->upper, 3);
                }
            }
        }
    }
}

static void write_morphs(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.morph");
    w_u32(w, m->morph_count);
    for (uint32_t i = 0; i < m->morph_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_morph *mo = &m->morphs[i];
        w_text(w, mo->name);
        w_text(w, mo->name_en);
        w_u8(w, mo->panel);
        w_u8(w, mo->type);
        w_u32(w, mo->offset_count);
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            switch (mo->type) {
            case MMD_MORPH_GROUP:
            case MMD_MORPH_FLIP:
                w_idx(w, w->morsz, mo->u.group[k].morph);
                w_f1(w, mo->u.group[k].weight);
                break;
            case MMD_MORPH_VERTEX:
                w_vidx(w, mo->u.vertex[k].vertex);
                w_f(w, mo->u.vertex[k].offset, 3);
                break;
            case MMD_MORPH_BONE:
                w_idx(w, w->bsz, mo->u.bone[k].bone);
                w_f(w, mo->u.bone[k].translation, 3);
                w_f(w, mo->u.bone[k].rotation, 4);
                break;
            case MMD_MORPH_MATERIAL: {
                const mmd_morph_material *mm = &mo->u.material[k];
                w_idx(w, w->msz, mm->material);
                w_u8(w, mm->op);
                w_f(w, mm->diffuse, 4);
                w_f(w, mm->specular, 3);
                w_f1(w, mm->specular_power);
                w_f(w, mm->ambient, 3);
                w_f(w, mm->edge_color, 4);
                w_f1(w, mm->edge_size);
                w_f(w, mm->texture_tint, 4);
                w_f(w, mm->sphere_tint, 4);
                w_f(w, mm->toon_tint, 4);
                break;
            }
            case MMD_MORPH_IMPULSE: {
                const mmd_morph_impulse *im = &mo->u.impulse[k];
                w_idx(w, w->rsz, im->rigid_body);
                w_u8(w, im->local ? 1 : 0);
                w_f(w, im->velocity, 3);
                w_f(w, im->torque, 3);
                break;
            }
            case MMD_MORPH_UV:
            case MMD_MORPH_ADD_UV1:
            case MMD_MORPH_ADD_UV2:
            case MMD_MORPH_ADD_UV3:
            case MMD_MORPH_ADD_UV4:
                w_vidx(w, mo->u.uv[k].vertex);
                w_f(w, mo->u.uv[k].offset, 4);
                break;
            default: wfail(w, MMD_E_BAD_VALUE, "morph type", mo->type); break;
            }
        }
    }
}

static void write_display_frames(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.display_frame");
    w_u32(w, m->display_frame_count);
    for (uint32_t i = 0; i < m->display_frame_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_display_frame *f = &m->display_frames[i];
        w_text(w, f->name);
        w_text(w, f->name_en);
        w_u8(w, f->special ? 1 : 0);
        w_u32(w, f->element_count);
        for (uint32_t k = 0; k < f->element_count; k++) {
            w_u8(w, f->elements[k].is_morph ? 1 : 0);
            w_idx(w, f->elements[k].is_morph ? w->morsz : w->bsz, f->elements[k].index);
        }
    }
}

static void write_rigid_bodies(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.rigid_body");
    w_u32(w, m->rigid_body_count);
    for (uint32_t i = 0; i < m->rigid_body_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_rigid_body *b = &m->rigid_bodies[i];
        w_text(w, b->name);
        w_text(w, b->name_en);
        w_idx(w, w->bsz, b->bone);
        w_u8(w, b->group);
        w_u16(w, b->no_collide_mask);
        w_u8(w, b->shape);
        w_f(w, b->size, 3);
        w_f(w, b->position, 3);
        w_f(w, b->rotation, 3);
        w_f1(w, b->mass);
        w_f1(w, b->linear_damping);
        w_f1(w, b->angular_damping);
        w_f1(w, b->restitution);
        w_f1(w, b->friction);
        w_u8(w, b->mode);
    }
}

static void write_joints(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.joint");
    w_u32(w, m->joint_count);
    for (uint32_t i = 0; i < m->joint_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_joint *j = &m->joints[i];
        w_text(w, j->name);
        w_text(w, j->name_en);
        w_u8(w, j->type);
        w_idx(w, w->rsz, j->body_a);
        w_idx(w, w->rsz, j->body_b);
        w_f(w, j->position, 3);
        w_f(w, j->rotation, 3);
        w_f(w, j->linear_lower, 3);
        w_f(w, j->linear_upper, 3);
        w_f(w, j->angular_lower, 3);
        w_f(w, j->angular_upper, 3);
        w_f(w, j->spring_linear, 3);
        w_f(w, j->spring_angular, 3);
    }
}

static void write_soft_bodies(wbuf *w, const mmd_model *m)
{
    sect(w, "pmx.soft_body");
    w_u32(w, m->soft_body_count);
    for (uint32_t i = 0; i < m->soft_body_count && w->st == MMD_OK; i++) {
        w->item = i;
        const mmd_soft_body *s = &m->soft_bodies[i];
        w_text(w, s->name);
        w_text(w, s->name_en);
        w_u8(w, s->shape);
        w_idx(w, w->msz, s->material);
        w_u8(w, s->group);
        w_u16(w, s->no_collide_mask);
        w_u8(w, s->flags);
        w_i32(w, s->bending_distance);
        w_i32(w, s->cluster_count);
        w_f1(w, s->total_mass);
        w_f1(w, s->margin);
        w_i32(w, s->aero_model);
        w_f(w, s->config, 12);
        w_f(w, s->cluster, 6);
        for (int k = 0; k < 4; k++)
            w_i32(w, s->iteration[k]);
        w_f(w, s->material_coef, 3);
        w_u32(w, s->anchor_count);
        for (uint32_t k = 0; k < s->anchor_count; k++) {
            w_idx(w, w->rsz, s->anchors[k].rigid_body);
            w_vidx(w, s->anchors[k].vertex);
            w_u8(w, s->anchors[k].near_mode ? 1 : 0);
        }
        w_u32(w, s->pin_count);
        for (uint32_t k = 0; k < s->pin_count; k++)
            w_vidx(w, s->pins[k]);
    }
}

mmd_status mmd_pmx_write(const mmd_model *m, uint8_t **out, size_t *out_size, mmd_error *err)
{
    if (!m || !out || !out_size)
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "pmx.write", -1, -1, "NULL argument");
    wbuf w;
    memset(&w, 0, sizeof w);
    w.err = err;
    w.item = -1;
    int v21 = m->version > 2.05f && m->version < 2.15f;
    w.utf8 = m->encoding == MMD_ENC_UTF8;
    sect(&w, "pmx.header");
    w.vsz = width_for(m->vertex_count, 1, m->index_size[0], &w);
    w.tsz = width_for(m->texture_count, 0, m->index_size[1], &w);
    w.msz = width_for(m->material_count, 0, m->index_size[2], &w);
    w.bsz = width_for(m->bone_count, 0, m->index_size[3], &w);
    w.morsz = width_for(m->morph_count, 0, m->index_size[4], &w);
    w.rsz = width_for(m->rigid_body_count, 0, m->index_size[5], &w);
    if (m->additional_uv_count > 4)
        wfail(&w, MMD_E_BAD_HEADER, "additional UV count > 4:", m->additional_uv_count);

    w_bytes(&w, "PMX ", 4);
    w_f1(&w, v21 ? 2.1f : 2.0f);
    w_u8(&w, 8);
    uint8_t g[8] = {(uint8_t)w.utf8, m->additional_uv_count, (uint8_t)w.vsz, (uint8_t)w.tsz,
                    (uint8_t)w.msz, (uint8_t)w.bsz, (uint8_t)w.morsz, (uint8_t)w.rsz};
    w_bytes(&w, g, 8);
    sect(&w, "pmx.info");
    w_text(&w, m->name);
    w_text(&w, m->name_en);
    w_text(&w, m->comment);
    w_text(&w, m->comment_en);

    write_vertices(&w, m);
    write_faces_textures(&w, m);
    write_materials(&w, m);
    write_bones(&w, m);
    write_morphs(&w, m);
    write_display_frames(&w, m);
    write_rigid_bodies(&w, m);
    write_joints(&w, m);
    if (v21)
        write_soft_bodies(&w, m);

    if (w.st != MMD_OK) {
        free(w.p);
        return w.st;
    }
    if (err)
        mmd_error_set(err, MMD_OK, NULL, -1, -1, "ok");
    *out = w.p ? w.p : malloc(1);
    *out_size = w.len;
    return MMD_OK;
}

/* ---- builders ---- */

mmd_model *mmd_model_new(void)
{
    mmd_arena *a = mmd_arena_create();
    mmd_model *m = a ? mmd_arena_alloc(a, sizeof *m) : NULL;
    char *e = m ? mmd_arena_strdup(a, "") : NULL;
    if (!e) {
        mmd_arena_destroy(a);
        return NULL;
    }
    m->arena = a;
    m->format = MMD_FORMAT_PMX;
    m->version = 2.0f;
    m->encoding = MMD_ENC_UTF16LE;
    m->name = m->name_en = m->comment = m->comment_en = e;
    return m;
}

char *mmd_model_str(mmd_model *m, const char *s) { return mmd_arena_strdup(m->arena, s ? s : ""); }

void *mmd_model_alloc(mmd_model *m, size_t n, size_t size)
{
    return mmd_arena_array(m->arena, n ? n : 1, size);
}

mmd_vertex *mmd_model_add_vertices(mmd_model *m, uint32_t n)
{
    mmd_vertex *v = mmd_model_alloc(m, n, sizeof *v);
    if (!v)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        v[i].normal[1] = 1;
        v[i].weight_type = MMD_WEIGHT_BDEF1;
        v[i].bones[0] = 0;
        v[i].bones[1] = v[i].bones[2] = v[i].bones[3] = -1;
        v[i].weights[0] = 1;
        v[i].edge_scale = 1;
    }
    m->vertices = v;
    m->vertex_count = n;
    return v;
}

uint32_t *mmd_model_add_indices(mmd_model *m, uint32_t n)
{
    uint32_t *p = mmd_model_alloc(m, n, sizeof *p);
    if (p) {
        m->indices = p;
        m->index_count = n;
    }
    return p;
}

char **mmd_model_add_textures(mmd_model *m, uint32_t n)
{
    char **t = mmd_model_alloc(m, n, sizeof *t);
    if (!t)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        t[i] = m->name; /* "" */
    m->textures = t;
    m->texture_count = n;
    return t;
}

mmd_material *mmd_model_add_materials(mmd_model *m, uint32_t n)
{
    mmd_material *mt = mmd_model_alloc(m, n, sizeof *mt);
    if (!mt)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        mt[i].name = mt[i].name_en = mt[i].memo = mmd_model_str(m, "");
        for (int k = 0; k < 4; k++)
            mt[i].diffuse[k] = 1;
        mt[i].specular_power = 1;
        mt[i].texture = mt[i].sphere_texture = mt[i].toon = -1;
    }
    m->materials = mt;
    m->material_count = n;
    return mt;
}

mmd_bone *mmd_model_add_bones(mmd_model *m, uint32_t n)
{
    mmd_bone *b = mmd_model_alloc(m, n, sizeof *b);
    if (!b)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        b[i].name = b[i].name_en = mmd_model_str(m, "");
        b[i].parent = b[i].tail_bone = b[i].append_parent = b[i].ik_target = -1;
        b[i].flags = MMD_BONE_ROTATABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
    }
    m->bones = b;
    m->bone_count = n;
    return b;
}

mmd_morph *mmd_model_add_morphs(mmd_model *m, uint32_t n)
{
    mmd_morph *mo = mmd_model_alloc(m, n, sizeof *mo);
    if (!mo)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        mo[i].name = mo[i].name_en = mmd_model_str(m, "");
        mo[i].panel = 4;
        mo[i].type = MMD_MORPH_VERTEX;
    }
    m->morphs = mo;
    m->morph_count = n;
    return mo;
}

mmd_display_frame *mmd_model_add_frames(mmd_model *m, uint32_t n)
{
    mmd_display_frame *f = mmd_model_alloc(m, n, sizeof *f);
    if (!f)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        f[i].name = f[i].name_en = mmd_model_str(m, "");
    m->display_frames = f;
    m->display_frame_count = n;
    return f;
}

mmd_rigid_body *mmd_model_add_rigid_bodies(mmd_model *m, uint32_t n)
{
    mmd_rigid_body *b = mmd_model_alloc(m, n, sizeof *b);
    if (!b)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        b[i].name = b[i].name_en = mmd_model_str(m, "");
        b[i].bone = -1;
        b[i].mass = 1;
    }
    m->rigid_bodies = b;
    m->rigid_body_count = n;
    return b;
}

mmd_joint *mmd_model_add_joints(mmd_model *m, uint32_t n)
{
    mmd_joint *j = mmd_model_alloc(m, n, sizeof *j);
    if (!j)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        j[i].name = j[i].name_en = mmd_model_str(m, "");
        j[i].body_a = j[i].body_b = -1;
    }
    m->joints = j;
    m->joint_count = n;
    return j;
}

mmd_soft_body *mmd_model_add_soft_bodies(mmd_model *m, uint32_t n)
{
    mmd_soft_body *s = mmd_model_alloc(m, n, sizeof *s);
    if (!s)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        s[i].name = s[i].name_en = mmd_model_str(m, "");
        s[i].material = -1;
    }
    m->soft_bodies = s;
    m->soft_body_count = n;
    return s;
}
