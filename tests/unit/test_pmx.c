/* tests/unit/test_pmx.c - PMX reader and writer: round trips of hand-built models
 * covering every weight type, morph type, bone block, 2.1 joints and soft bodies;
 * header checks; truncation sweep; random byte flips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/model.h"
#include "core/pmx_write.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* ---------- fixture ---------- */

static void setf(float *d, int n, float base)
{
    for (int i = 0; i < n; i++)
        d[i] = base + 0.125f * (float)i;
}

/* A model that exercises every section and optional block. v21 adds the 2.1 parts. */
static mmd_model *build_full(int v21, int utf8, int nuv)
{
    mmd_model *m = mmd_model_new();
    REQUIRE(m);
    m->version = v21 ? 2.1f : 2.0f;
    m->encoding = utf8 ? MMD_ENC_UTF8 : MMD_ENC_UTF16LE;
    m->additional_uv_count = (uint8_t)nuv;
    m->name = mmd_model_str(m, "テストモデル");
    m->name_en = mmd_model_str(m, "Test model");
    m->comment = mmd_model_str(m, "line1\r\nline2 \xF0\x9F\x98\x80"); /* astral plane: surrogate pair */
    m->comment_en = mmd_model_str(m, "");

    mmd_vertex *v = mmd_model_add_vertices(m, 5);
    REQUIRE(v);
    for (int i = 0; i < 5; i++) {
        setf(v[i].position, 3, (float)i);
        setf(v[i].normal, 3, 0.5f);
        setf(v[i].uv, 2, 0.25f * (float)i);
        for (int k = 0; k < nuv; k++)
            setf(v[i].add_uv[k], 4, (float)(10 * k + i));
        v[i].edge_scale = 1.0f + (float)i;
    }
    /* BDEF1 */
    v[0].weight_type = MMD_WEIGHT_BDEF1;
    v[0].bones[0] = 2;
    /* BDEF2 */
    v[1].weight_type = MMD_WEIGHT_BDEF2;
    v[1].bones[0] = 1;
    v[1].bones[1] = 2;
    v[1].weights[0] = 0.75f;
    v[1].weights[1] = 0.25f;
    /* BDEF4 */
    v[2].weight_type = MMD_WEIGHT_BDEF4;
    for (int k = 0; k < 4; k++) {
        v[2].bones[k] = k;
        v[2].weights[k] = 0.25f;
    }
    /* SDEF */
    v[3].weight_type = MMD_WEIGHT_SDEF;
    v[3].bones[0] = 4;
    v[3].bones[1] = 5;
    v[3].weights[0] = 0.5f;
    v[3].weights[1] = 0.5f;
    setf(v[3].sdef_c, 3, 1.5f);
    setf(v[3].sdef_r0, 3, 2.5f);
    setf(v[3].sdef_r1, 3, 3.5f);
    /* QDEF (2.1) or a BDEF4 with an unused slot */
    v[4].weight_type = v21 ? MMD_WEIGHT_QDEF : MMD_WEIGHT_BDEF4;
    v[4].bones[0] = 0;
    v[4].bones[1] = 5;
    v[4].bones[2] = -1;
    v[4].bones[3] = -1;
    v[4].weights[0] = 0.5f;
    v[4].weights[1] = 0.5f;

    uint32_t *ix = mmd_model_add_indices(m, 6);
    static const uint32_t tri[6] = {0, 1, 2, 2, 3, 4};
    memcpy(ix, tri, sizeof tri);

    char **tx = mmd_model_add_textures(m, 3);
    tx[0] = mmd_model_str(m, "tex\\body.png");
    tx[1] = mmd_model_str(m, "sph\\金属.spa");
    tx[2] = mmd_model_str(m, "toon\\t.bmp");

    mmd_material *mt = mmd_model_add_materials(m, 2);
    mt[0].name = mmd_model_str(m, "体");
    mt[0].name_en = mmd_model_str(m, "body");
    setf(mt[0].diffuse, 4, 0.1f);
    setf(mt[0].specular, 3, 0.2f);
    mt[0].specular_power = 5;
    setf(mt[0].ambient, 3, 0.3f);
    mt[0].flags = v21 ? 0xFF : 0x1F;
    setf(mt[0].edge_color, 4, 0.4f);
    mt[0].edge_size = 1.5f;
    mt[0].texture = 0;
    mt[0].sphere_texture = 1;
    mt[0].sphere_mode = MMD_SPHERE_ADD;
    mt[0].toon_shared = false;
    mt[0].toon = 2;
    mt[0].memo = mmd_model_str(m, "memo");
    mt[0].index_count = 3;
    mt[1].sphere_mode = MMD_SPHERE_SUB_TEXTURE;
    mt[1].toon_shared = true;
    mt[1].toon = 9;
    mt[1].index_count = 3;
    if (utf8) { /* shared toon "none" is stored as 0xFF */
        mt[1].toon = -1;
    }

    mmd_bone *b = mmd_model_add_bones(m, 6);
    b[0].name = mmd_model_str(m, "センター");
    b[0].name_en = mmd_model_str(m, "center");
    b[0].flags |= MMD_BONE_MOVABLE;
    setf(b[0].tail_offset, 3, 0.0f);
    b[1].name = mmd_model_str(m, "上半身");
    setf(b[1].position, 3, 1.0f);
    b[1].parent = 0;
    b[1].layer = 1;
    b[1].flags |= MMD_BONE_TAIL_IS_BONE;
    b[1].tail_bone = 2; /* forward reference */
    b[2].parent = 1;
    b[2].flags |= MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE | MMD_BONE_APPEND_LOCAL |
                  MMD_BONE_FIXED_AXIS | MMD_BONE_LOCAL_AXES | MMD_BONE_EXTERNAL_PARENT | MMD_BONE_AFTER_PHYSICS;
    b[2].append_parent = 1;
    b[2].append_ratio = -0.5f;
    setf(b[2].fixed_axis, 3, 0.5f);
    setf(b[2].local_x, 3, 0.6f);
    setf(b[2].local_z, 3, 0.7f);
    b[2].external_key = 7;
    setf(b[2].tail_offset, 3, 0.8f);
    b[3].name = mmd_model_str(m, "右足ＩＫ");
    b[3].parent = 0;
    b[3].flags |= MMD_BONE_IK | MMD_BONE_MOVABLE;
    b[3].ik_target = 5;
    b[3].ik_loop = 40;
    b[3].ik_limit_angle = 0.5f;
    b[3].ik_link_count = 2;
    b[3].ik_links = mmd_model_alloc(m, 2, sizeof(mmd_ik_link));
    b[3].ik_links[0].bone = 4;
    b[3].ik_links[0].has_limit = true;
    setf(b[3].ik_links[0].lower, 3, -3.0f);
    setf(b[3].ik_links[0].upper, 3, -0.5f);
    b[3].ik_links[1].bone = 2;
    b[4].parent = 2;
    b[4].layer = -1;
    b[5].parent = 4;

    mmd_morph *mo = mmd_model_add_morphs(m, MMD_MORPH_TYPE_COUNT - (v21 ? 0 : 2));
    for (uint32_t i = 0; i < m->morph_count; i++) {
        mmd_morph *x = &mo[i];
        char name[32];
        snprintf(name, sizeof name, "morph%u", i);
        x->name = mmd_model_str(m, name);
        x->panel = (uint8_t)(i % 5);
        x->type = (uint8_t)i;
        x->offset_count = 2;
        switch (i) {
        case MMD_MORPH_GROUP:
        case MMD_MORPH_FLIP:
            x->u.group = mmd_model_alloc(m, 2, sizeof *x->u.group);
            x->u.group[0].morph = 1;
            x->u.group[0].weight = 0.5f;
            x->u.group[1].morph = 8;
            x->u.group[1].weight = 1.0f;
            break;
        case MMD_MORPH_VERTEX:
            x->u.vertex = mmd_model_alloc(m, 2, sizeof *x->u.vertex);
            x->u.vertex[0].vertex = 4;
            setf(x->u.vertex[0].offset, 3, 0.1f);
            x->u.vertex[1].vertex = 0;
            setf(x->u.vertex[1].offset, 3, -0.1f);
            break;
        case MMD_MORPH_BONE:
            x->u.bone = mmd_model_alloc(m, 2, sizeof *x->u.bone);
            x->u.bone[0].bone = 5;
            setf(x->u.bone[0].translation, 3, 1);
            setf(x->u.bone[0].rotation, 4, 0.25f);
            x->u.bone[1].bone = 0;
            x->u.bone[1].rotation[3] = 1;
            break;
        case MMD_MORPH_MATERIAL:
            x->u.material = mmd_model_alloc(m, 2, sizeof *x->u.material);
            for (int k = 0; k < 2; k++) {
                mmd_morph_material *mm = &x->u.material[k];
                mm->material = k ? -1 : 1;
                mm->op = (uint8_t)k;
                setf(mm->diffuse, 4, 0.1f * (float)k);
                setf(mm->specular, 3, 0.2f);
                mm->specular_power = 3;
                setf(mm->ambient, 3, 0.3f);
                setf(mm->edge_color, 4, 0.4f);
                mm->edge_size = 0.5f;
                setf(mm->texture_tint, 4, 0.6f);
                setf(mm->sphere_tint, 4, 0.7f);
                setf(mm->toon_tint, 4, 0.8f);
            }
            break;
        case MMD_MORPH_IMPULSE:
            x->u.impulse = mmd_model_alloc(m, 2, sizeof *x->u.impulse);
            x->u.impulse[0].rigid_body = 1;
            x->u.impulse[0].local = true;
            setf(x->u.impulse[0].velocity, 3, 1);
            setf(x->u.impulse[0].torque, 3, 2);
            x->u.impulse[1].rigid_body = 0;
            break;
        default: /* UV, add UV1..4 */
            x->u.uv = mmd_model_alloc(m, 2, sizeof *x->u.uv);
            x->u.uv[0].vertex = 3;
            setf(x->u.uv[0].offset, 4, (float)i);
            x->u.uv[1].vertex = 1;
            break;
        }
    }

    mmd_display_frame *f = mmd_model_add_frames(m, 2);
    f[0].name = mmd_model_str(m, "Root");
    f[0].special = true;
    f[0].element_count = 1;
    f[0].elements = mmd_model_alloc(m, 1, sizeof *f[0].elements);
    f[0].elements[0].index = 0;
    f[1].name = mmd_model_str(m, "表情");
    f[1].special = true;
    f[1].element_count = 3;
    f[1].elements = mmd_model_alloc(m, 3, sizeof *f[1].elements);
    f[1].elements[0].is_morph = 1;
    f[1].elements[0].index = 1;
    f[1].elements[1].is_morph = 1;
    f[1].elements[1].index = 2;
    f[1].elements[2].index = 5;

    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, 2);
    for (int i = 0; i < 2; i++) {
        rb[i].name = mmd_model_str(m, i ? "髪" : "頭");
        rb[i].bone = i ? -1 : 1;
        rb[i].group = (uint8_t)(i ? 15 : 3);
        rb[i].no_collide_mask = (uint16_t)(i ? 0xFFFF : 0x0008);
        rb[i].shape = (uint8_t)(i ? MMD_SHAPE_CAPSULE : MMD_SHAPE_BOX);
        setf(rb[i].size, 3, 0.5f);
        setf(rb[i].position, 3, 10);
        setf(rb[i].rotation, 3, 0.1f);
        rb[i].mass = 2;
        rb[i].linear_damping = 0.5f;
        rb[i].angular_damping = 0.6f;
        rb[i].restitution = 0.1f;
        rb[i].friction = 0.7f;
        rb[i].mode = (uint8_t)(i ? MMD_BODY_PHYSICS_BONE_POS : MMD_BODY_FOLLOW_BONE);
    }

    mmd_joint *j = mmd_model_add_joints(m, v21 ? 6 : 1);
    for (uint32_t i = 0; i < m->joint_count; i++) {
        j[i].name = mmd_model_str(m, "joint");
        j[i].type = (uint8_t)i;
        j[i].body_a = 0;
        j[i].body_b = i == 2 ? -1 : 1;
        setf(j[i].position, 3, 1);
        setf(j[i].rotation, 3, 2);
        setf(j[i].linear_lower, 3, -1);
        setf(j[i].linear_upper, 3, 1);
        setf(j[i].angular_lower, 3, -0.5f);
        setf(j[i].angular_upper, 3, 0.5f);
        setf(j[i].spring_linear, 3, 10);
        setf(j[i].spring_angular, 3, 20);
    }

    if (v21) {
        mmd_soft_body *s = mmd_model_add_soft_bodies(m, 1);
        s->name = mmd_model_str(m, "スカート");
        s->shape = 1;
        s->material = 1;
        s->group = 2;
        s->no_collide_mask = 0x00F0;
        s->flags = 0x07;
        s->bending_distance = 2;
        s->cluster_count = 3;
        s->total_mass = 1.5f;
        s->margin = 0.05f;
        s->aero_model = 1;
        setf(s->config, 12, 0.1f);
        setf(s->cluster, 6, 0.2f);
        for (int k = 0; k < 4; k++)
            s->iteration[k] = k + 1;
        setf(s->material_coef, 3, 0.9f);
        s->anchor_count = 2;
        s->anchors = mmd_model_alloc(m, 2, sizeof *s->anchors);
        s->anchors[0].rigid_body = 0;
        s->anchors[0].vertex = 2;
        s->anchors[0].near_mode = true;
        s->anchors[1].rigid_body = 1;
        s->anchors[1].vertex = 4;
        s->pin_count = 2;
        s->pins = mmd_model_alloc(m, 2, sizeof *s->pins);
        s->pins[0] = 1;
        s->pins[1] = 3;
    }
    return m;
}

/* ---------- field-by-field comparison ---------- */

static int g_diffs;

#define SAME(cond)                                                                      \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            if (g_diffs++ < 10)                                                         \
                printf("#   %s:%d: differs: %s (item %u)\n", __FILE__, __LINE__, #cond, i); \
        }                                                                               \
    } while (0)
#define FEQ(a, b, n) SAME(memcmp((a), (b), sizeof(float) * (n)) == 0)
#define SEQ(a, b) SAME(strcmp((a), (b)) == 0)

static int compare_models(const mmd_model *a, const mmd_model *b)
{
    g_diffs = 0;
    uint32_t i = 0;
    SAME(a->format == b->format);
    SAME(a->version == b->version);
    SAME(a->encoding == b->encoding);
    SAME(a->additional_uv_count == b->additional_uv_count);
    SEQ(a->name, b->name);
    SEQ(a->name_en, b->name_en);
    SEQ(a->comment, b->comment);
    SEQ(a->comment_en, b->comment_en);
    SAME(a->vertex_count == b->vertex_count);
    SAME(a->index_count == b->index_count);
    SAME(a->texture_count == b->texture_count);
    SAME(a->material_count == b->material_count);
    SAME(a->bone_count == b->bone_count);
    SAME(a->morph_count == b->morph_count);
    SAME(a->display_frame_count == b->display_frame_count);
    SAME(a->rigid_body_count == b->rigid_body_count);
    SAME(a->joint_count == b->joint_count);
    SAME(a->soft_body_count == b->soft_body_count);
    if (g_diffs)
        return g_diffs;
    for (i = 0; i < a->vertex_count; i++) {
        const mmd_vertex *x = &a->vertices[i], *y = &b->vertices[i];
        FEQ(x->position, y->position, 3);
        FEQ(x->normal, y->normal, 3);
        FEQ(x->uv, y->uv, 2);
        FEQ(x->add_uv, y->add_uv, 16);
        SAME(x->weight_type == y->weight_type);
        SAME(memcmp(x->bones, y->bones, sizeof x->bones) == 0);
        FEQ(x->weights, y->weights, 4);
        FEQ(x->sdef_c, y->sdef_c, 3);
        FEQ(x->sdef_r0, y->sdef_r0, 3);
        FEQ(x->sdef_r1, y->sdef_r1, 3);
        FEQ(&x->edge_scale, &y->edge_scale, 1);
    }
    SAME(memcmp(a->indices, b->indices, sizeof(uint32_t) * a->index_count) == 0);
    for (i = 0; i < a->texture_count; i++)
        SEQ(a->textures[i], b->textures[i]);
    for (i = 0; i < a->material_count; i++) {
        const mmd_material *x = &a->materials[i], *y = &b->materials[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        FEQ(x->diffuse, y->diffuse, 4);
        FEQ(x->specular, y->specular, 3);
        FEQ(&x->specular_power, &y->specular_power, 1);
        FEQ(x->ambient, y->ambient, 3);
        SAME(x->flags == y->flags);
        FEQ(x->edge_color, y->edge_color, 4);
        FEQ(&x->edge_size, &y->edge_size, 1);
        SAME(x->texture == y->texture);
        SAME(x->sphere_texture == y->sphere_texture);
        SAME(x->sphere_mode == y->sphere_mode);
        SAME(x->toon_shared == y->toon_shared);
        SAME(x->toon == y->toon);
        SEQ(x->memo, y->memo);
        SAME(x->index_count == y->index_count);
    }
    for (i = 0; i < a->bone_count; i++) {
        const mmd_bone *x = &a->bones[i], *y = &b->bones[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        FEQ(x->position, y->position, 3);
        SAME(x->parent == y->parent);
        SAME(x->layer == y->layer);
        SAME(x->flags == y->flags);
        if (!(x->flags & MMD_BONE_TAIL_IS_BONE))
            FEQ(x->tail_offset, y->tail_offset, 3);
        SAME(x->tail_bone == y->tail_bone);
        SAME(x->append_parent == y->append_parent);
        FEQ(&x->append_ratio, &y->append_ratio, 1);
        FEQ(x->fixed_axis, y->fixed_axis, 3);
        FEQ(x->local_x, y->local_x, 3);
        FEQ(x->local_z, y->local_z, 3);
        SAME(x->external_key == y->external_key);
        SAME(x->ik_target == y->ik_target);
        SAME(x->ik_loop == y->ik_loop);
        FEQ(&x->ik_limit_angle, &y->ik_limit_angle, 1);
        SAME(x->ik_link_count == y->ik_link_count);
        for (uint32_t k = 0; k < x->ik_link_count && k < y->ik_link_count; k++) {
            SAME(x->ik_links[k].bone == y->ik_links[k].bone);
            SAME(x->ik_links[k].has_limit == y->ik_links[k].has_limit);
            FEQ(x->ik_links[k].lower, y->ik_links[k].lower, 3);
            FEQ(x->ik_links[k].upper, y->ik_links[k].upper, 3);
        }
    }
    for (i = 0; i < a->morph_count; i++) {
        const mmd_morph *x = &a->morphs[i], *y = &b->morphs[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        SAME(x->panel == y->panel);
        SAME(x->type == y->type);
        SAME(x->offset_count == y->offset_count);
        if (x->type != y->type || x->offset_count != y->offset_count)
            continue;
        for (uint32_t k = 0; k < x->offset_count; k++) {
            switch (x->type) {
            case MMD_MORPH_GROUP:
            case MMD_MORPH_FLIP:
                SAME(x->u.group[k].morph == y->u.group[k].morph);
                FEQ(&x->u.group[k].weight, &y->u.group[k].weight, 1);
                break;
            case MMD_MORPH_VERTEX:
                SAME(x->u.vertex[k].vertex == y->u.vertex[k].vertex);
                FEQ(x->u.vertex[k].offset, y->u.vertex[k].offset, 3);
                break;
            case MMD_MORPH_BONE:
                SAME(x->u.bone[k].bone == y->u.bone[k].bone);
                FEQ(x->u.bone[k].translation, y->u.bone[k].translation, 3);
                FEQ(x->u.bone[k].rotation, y->u.bone[k].rotation, 4);
                break;
            case MMD_MORPH_MATERIAL: {
                const mmd_morph_material *p = &x->u.material[k], *q = &y->u.material[k];
                SAME(p->material == q->material);
                SAME(p->op == q->op);
                FEQ(p->diffuse, q->diffuse, 4);
                FEQ(p->specular, q->specular, 3);
                FEQ(&p->specular_power, &q->specular_power, 1);
                FEQ(p->ambient, q->ambient, 3);
                FEQ(p->edge_color, q->edge_color, 4);
                FEQ(&p->edge_size, &q->edge_size, 1);
                FEQ(p->texture_tint, q->texture_tint, 4);
                FEQ(p->sphere_tint, q->sphere_tint, 4);
                FEQ(p->toon_tint, q->toon_tint, 4);
                break;
            }
            case MMD_MORPH_IMPULSE:
                SAME(x->u.impulse[k].rigid_body == y->u.impulse[k].rigid_body);
                SAME(x->u.impulse[k].local == y->u.impulse[k].local);
                FEQ(x->u.impulse[k].velocity, y->u.impulse[k].velocity, 3);
                FEQ(x->u.impulse[k].torque, y->u.impulse[k].torque, 3);
                break;
            default:
                SAME(x->u.uv[k].vertex == y->u.uv[k].vertex);
                FEQ(x->u.uv[k].offset, y->u.uv[k].offset, 4);
                break;
            }
        }
    }
    for (i = 0; i < a->display_frame_count; i++) {
        const mmd_display_frame *x = &a->display_frames[i], *y = &b->display_frames[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        SAME(x->special == y->special);
        SAME(x->element_count == y->element_count);
        for (uint32_t k = 0; k < x->element_count && k < y->element_count; k++) {
            SAME(x->elements[k].is_morph == y->elements[k].is_morph);
            SAME(x->elements[k].index == y->elements[k].index);
        }
    }
    for (i = 0; i < a->rigid_body_count; i++) {
        const mmd_rigid_body *x = &a->rigid_bodies[i], *y = &b->rigid_bodies[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        SAME(x->bone == y->bone);
        SAME(x->group == y->group);
        SAME(x->no_collide_mask == y->no_collide_mask);
        SAME(x->shape == y->shape);
        FEQ(x->size, y->size, 3);
        FEQ(x->position, y->position, 3);
        FEQ(x->rotation, y->rotation, 3);
        FEQ(&x->mass, &y->mass, 1);
        FEQ(&x->linear_damping, &y->linear_damping, 1);
        FEQ(&x->angular_damping, &y->angular_damping, 1);
        FEQ(&x->restitution, &y->restitution, 1);
        FEQ(&x->friction, &y->friction, 1);
        SAME(x->mode == y->mode);
    }
    for (i = 0; i < a->joint_count; i++) {
        const mmd_joint *x = &a->joints[i], *y = &b->joints[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        SAME(x->type == y->type);
        SAME(x->body_a == y->body_a);
        SAME(x->body_b == y->body_b);
        FEQ(x->position, y->position, 3);
        FEQ(x->rotation, y->rotation, 3);
        FEQ(x->linear_lower, y->linear_lower, 3);
        FEQ(x->linear_upper, y->linear_upper, 3);
        FEQ(x->angular_lower, y->angular_lower, 3);
        FEQ(x->angular_upper, y->angular_upper, 3);
        FEQ(x->spring_linear, y->spring_linear, 3);
        FEQ(x->spring_angular, y->spring_angular, 3);
    }
    for (i = 0; i < a->soft_body_count; i++) {
        const mmd_soft_body *x = &a->soft_bodies[i], *y = &b->soft_bodies[i];
        SEQ(x->name, y->name);
        SEQ(x->name_en, y->name_en);
        SAME(x->shape == y->shape);
        SAME(x->material == y->material);
        SAME(x->group == y->group);
        SAME(x->no_collide_mask == y->no_collide_mask);
        SAME(x->flags == y->flags);
        SAME(x->bending_distance == y->bending_distance);
        SAME(x->cluster_count == y->cluster_count);
        FEQ(&x->total_mass, &y->total_mass, 1);
        FEQ(&x->margin, &y->margin, 1);
        SAME(x->aero_model == y->aero_model);
        FEQ(x->config, y->config, 12);
        FEQ(x->cluster, y->cluster, 6);
        SAME(memcmp(x->iteration, y->iteration, sizeof x->iteration) == 0);
        FEQ(x->material_coef, y->material_coef, 3);
        SAME(x->anchor_count == y->anchor_count);
        for (uint32_t k = 0; k < x->anchor_count && k < y->anchor_count; k++) {
            SAME(x->anchors[k].rigid_body == y->anchors[k].rigid_body);
            SAME(x->anchors[k].vertex == y->anchors[k].vertex);
            SAME(x->anchors[k].near_mode == y->anchors[k].near_mode);
        }
        SAME(x->pin_count == y->pin_count);
        if (x->pin_count == y->pin_count)
            SAME(memcmp(x->pins, y->pins, sizeof(uint32_t) * x->pin_count) == 0);
    }
    return g_diffs;
}

/* write m, load it back; returns the loaded model (REQUIREs success) */
static mmd_model *round_trip(const mmd_model *m, uint8_t **bytes, size_t *n)
{
    mmd_error err;
    REQUIRE(mmd_pmx_write(m, bytes, n, &err) == MMD_OK);
    mmd_model *r = NULL;
    mmd_status st = mmd_model_load(*bytes, *n, &r, &err);
    if (st != MMD_OK) {
        char buf[256];
        mmd_error_format(&err, "round trip", buf, sizeof buf);
        printf("#   %s\n", buf);
    }
    REQUIRE(st == MMD_OK && r);
    return r;
}

static void check_round_trip(int v21, int utf8, int nuv, const uint8_t *forced)
{
    mmd_model *m = build_full(v21, utf8, nuv);
    if (forced)
        memcpy(m->index_size, forced, 6);
    uint8_t *bytes = NULL, *bytes2 = NULL;
    size_t n = 0, n2 = 0;
    mmd_model *r = round_trip(m, &bytes, &n);
    CHECK_EQ_INT(compare_models(m, r), 0);
    CHECK_EQ_INT(r->warnings, 0);
    /* written again, the bytes are identical */
    mmd_error err;
    REQUIRE(mmd_pmx_write(r, &bytes2, &n2, &err) == MMD_OK);
    CHECK(n == n2 && memcmp(bytes, bytes2, n) == 0);
    if (forced)
        for (int i = 0; i < 6; i++)
            CHECK_EQ_INT(r->index_size[i], forced[i]);
    free(bytes);
    free(bytes2);
    mmd_model_free(r);
    mmd_model_free(m);
}

TEST(round_trip_20_utf16) { check_round_trip(0, 0, 0, NULL); }
TEST(round_trip_21_utf16_uv4) { check_round_trip(1, 0, 4, NULL); }
TEST(round_trip_21_utf8_uv2) { check_round_trip(1, 1, 2, NULL); }
TEST(round_trip_forced_index_sizes)
{
    static const uint8_t w4[6] = {4, 4, 4, 4, 4, 4};
    static const uint8_t w2[6] = {2, 2, 2, 2, 2, 2};
    check_round_trip(1, 0, 1, w4);
    check_round_trip(0, 1, 3, w2);
}

TEST(parsed_values)
{
    mmd_model *m = build_full(1, 0, 1);
    uint8_t *bytes;
    size_t n;
    mmd_model *r = round_trip(m, &bytes, &n);
    CHECK(memcmp(bytes, "PMX ", 4) == 0);
    CHECK_NEAR(r->version, 2.1, 1e-6);
    CHECK_EQ_INT(r->index_size[0], 1); /* 5 vertices */
    CHECK_EQ_INT(r->index_size[3], 1);
    CHECK_STR(r->name, "テストモデル");
    CHECK_STR(r->comment, "line1\r\nline2 \xF0\x9F\x98\x80");
    CHECK_STR(r->textures[1], "sph\\金属.spa");
    CHECK_STR(r->bones[0].name, "センター");
    /* BDEF2 stores only w0 */
    CHECK_NEAR(r->vertices[1].weights[0], 0.75, 0);
    CHECK_NEAR(r->vertices[1].weights[1], 0.25, 0);
    CHECK_EQ_INT(r->vertices[0].bones[1], -1);
    CHECK_EQ_INT(r->vertices[3].bones[2], -1);
    CHECK_EQ_INT(r->vertices[4].weight_type, MMD_WEIGHT_QDEF);
    CHECK_EQ_INT(r->bones[1].tail_bone, 2);
    CHECK_EQ_INT(r->bones[3].ik_target, 5);
    CHECK_EQ_INT(r->materials[1].toon, 9);
    CHECK(r->materials[1].toon_shared);
    CHECK_EQ_INT(r->morphs[MMD_MORPH_MATERIAL].u.material[1].material, -1);
    CHECK_EQ_INT(r->joints[5].type, MMD_JOINT_HINGE);
    CHECK_EQ_INT(r->soft_bodies[0].pins[1], 3);
    CHECK_EQ_INT(mmd_model_find_bone(r, "右足ＩＫ"), 3);
    CHECK_EQ_INT(mmd_model_find_morph(r, "morph7"), 7);
    /* eval order: (after physics, layer, index) -> layer -1 bone 4 first, bone 2 (after physics) last */
    static const int32_t want[6] = {4, 0, 3, 5, 1, 2};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(r->eval_order[i], want[i]);
    free(bytes);
    mmd_model_free(r);
    mmd_model_free(m);
}

/* ---------- header checks ---------- */

static uint8_t *small_file(size_t *n)
{
    mmd_model *m = build_full(0, 0, 0);
    uint8_t *bytes = NULL;
    REQUIRE(mmd_pmx_write(m, &bytes, n, NULL) == MMD_OK);
    mmd_model_free(m);
    return bytes;
}

static mmd_status load_patched(const uint8_t *src, size_t n, size_t at, uint8_t value, mmd_error *err)
{
    uint8_t *b = malloc(n);
    memcpy(b, src, n);
    b[at] = value;
    mmd_model *out = (mmd_model *)(uintptr_t)1; /* must stay untouched on failure */
    mmd_status st = mmd_model_load(b, n, &out, err);
    if (st == MMD_OK)
        mmd_model_free(out);
    else
        CHECK(out == (mmd_model *)(uintptr_t)1);
    free(b);
    return st;
}

TEST(header_checks)
{
    size_t n;
    uint8_t *f = small_file(&n);
    mmd_error e;
    CHECK_EQ_INT(load_patched(f, n, 0, 'X', &e), MMD_E_BAD_MAGIC);
    CHECK_EQ_INT(load_patched(f, n, 3, 0, &e), MMD_E_BAD_MAGIC); /* "PMX\0" */
    /* version 3.0 = 0x40400000 */
    uint8_t *g = malloc(n);
    memcpy(g, f, n);
    float three = 3.0f;
    memcpy(g + 4, &three, 4);
    mmd_model *out = NULL;
    CHECK_EQ_INT(mmd_model_load(g, n, &out, &e), MMD_E_BAD_VERSION);
    CHECK_EQ_INT(e.offset, 4);
    CHECK(out == NULL);
    free(g);
    CHECK_EQ_INT(load_patched(f, n, 8, 7, &e), MMD_E_BAD_HEADER); /* globals count */
    CHECK_EQ_INT(load_patched(f, n, 9, 2, &e), MMD_E_BAD_HEADER); /* encoding 2 */
    CHECK_EQ_INT(e.offset, 9);
    CHECK_STR(e.section, "pmx.header");
    CHECK(strstr(e.msg, "encoding") != NULL);
    CHECK_EQ_INT(load_patched(f, n, 10, 5, &e), MMD_E_BAD_HEADER); /* additional UV 5 */
    CHECK_EQ_INT(e.offset, 10);
    for (size_t k = 11; k < 17; k++) {
        CHECK_EQ_INT(load_patched(f, n, k, 3, &e), MMD_E_BAD_HEADER); /* index size 3 */
        CHECK_EQ_INT(e.offset, (long long)k);
    }
    CHECK_EQ_INT(load_patched(f, n, 11, 0, &e), MMD_E_BAD_HEADER);
    /* a globals block longer than 8 bytes is accepted (extra bytes skipped) */
    uint8_t *h = malloc(n + 2);
    memcpy(h, f, 9);
    h[8] = 10;
    memcpy(h + 9, f + 9, 8);
    h[17] = h[18] = 0xEE;
    memcpy(h + 19, f + 17, n - 17);
    out = NULL;
    CHECK_EQ_INT(mmd_model_load(h, n + 2, &out, &e), MMD_OK);
    mmd_model_free(out);
    free(h);
    /* NULL / empty */
    CHECK_EQ_INT(mmd_model_load(f, 0, &out, &e), MMD_E_BAD_MAGIC);
    CHECK_EQ_INT(mmd_model_load(NULL, 10, &out, NULL), MMD_E_BAD_MAGIC);
    free(f);
}

TEST(structural_errors_name_the_element)
{
    /* parent out of range: bone 4's parent becomes 900 (forced 2-byte bone indices) */
    mmd_model *m = build_full(0, 0, 0);
    m->index_size[3] = 2;
    m->bones[4].parent = 900;
    uint8_t *b;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    mmd_model *out = NULL;
    mmd_error e;
    CHECK_EQ_INT(mmd_model_load(b, n, &out, &e), MMD_E_BAD_INDEX);
    CHECK(out == NULL);
    CHECK_STR(e.section, "pmx.bone");
    CHECK_EQ_INT(e.item, 4);
    CHECK(e.offset > 0 && (size_t)e.offset < n);
    CHECK(strstr(e.msg, "900") && strstr(e.msg, "6 bones"));
    char buf[256];
    mmd_error_format(&e, "x.pmx", buf, sizeof buf);
    CHECK(strstr(buf, "x.pmx: offset 0x") && strstr(buf, "pmx.bone #4: "));
    free(b);
    mmd_model_free(m);

    /* face index out of range is caught by the parser */
    m = build_full(0, 0, 0);
    m->indices[4] = 5;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    CHECK_EQ_INT(mmd_model_load(b, n, &out, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmx.face");
    CHECK_EQ_INT(e.item, 1);
    free(b);
    mmd_model_free(m);

    /* weight type 7 */
    m = build_full(0, 0, 0);
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    /* first vertex's weight type byte: after header(17) + 4 texts + count(4) + 32 bytes */
    size_t at = 17;
    for (int t = 0; t < 4; t++) {
        uint32_t len;
        memcpy(&len, b + at, 4);
        at += 4 + len;
    }
    at += 4 + 32;
    CHECK_EQ_INT(b[at], MMD_WEIGHT_BDEF1);
    b[at] = 7;
    CHECK_EQ_INT(mmd_model_load(b, n, &out, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "pmx.vertex");
    CHECK_EQ_INT(e.item, 0);
    CHECK_EQ_INT(e.offset, (long long)at);
    free(b);
    mmd_model_free(m);
}

/* ---------- truncation sweep and random flips ---------- */

static void sweep(int v21)
{
    mmd_model *m = build_full(v21, 0, 2);
    uint8_t *b;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    mmd_model_free(m);
    int bad = 0, truncated = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, b, len);
        mmd_model *out = NULL;
        mmd_error e;
        mmd_status st = mmd_model_load(cut, len, &out, &e);
        if (st == MMD_OK) {
            bad++;
            mmd_model_free(out);
        }
        truncated += st == MMD_E_TRUNCATED;
        free(cut);
    }
    /* 2.1: the cut right before the soft-body section is the accepted
     * "2.1 without soft bodies" file (docs/compat.md); every other prefix fails */
    CHECK_EQ_INT(bad, v21 ? 1 : 0);
    /* a cut inside a field is MMD_E_TRUNCATED; a cut that leaves a section's count
     * larger than the bytes left trips the count check first (MMD_E_BAD_COUNT) */
    printf("# %zu prefixes: %d truncated, %zu other errors\n", n, truncated, n - (size_t)truncated);
    CHECK(truncated > 0);
    mmd_model *out = NULL;
    CHECK_EQ_INT(mmd_model_load(b, n, &out, NULL), MMD_OK);
    mmd_model_free(out);
    free(b);
}

TEST(truncation_sweep_20) { sweep(0); }
TEST(truncation_sweep_21) { sweep(1); }

TEST(random_byte_flips)
{
    mmd_model *m = build_full(1, 0, 1);
    uint8_t *b;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    mmd_model_free(m);
    uint32_t seed = 12345;
    int ok = 0, failed = 0;
    uint8_t *c = malloc(n);
    for (int it = 0; it < 2000; it++) {
        memcpy(c, b, n);
        int flips = 1 + it % 4;
        for (int k = 0; k < flips; k++) {
            seed = seed * 1664525u + 1013904223u;
            size_t pos = (seed >> 8) % n;
            seed = seed * 1664525u + 1013904223u;
            c[pos] ^= (uint8_t)(1u << ((seed >> 16) & 7));
        }
        mmd_model *out = NULL;
        mmd_error e;
        if (mmd_model_load(c, n, &out, &e) == MMD_OK) {
            ok++;
            CHECK(out != NULL);
            mmd_model_free(out);
        } else {
            failed++;
            CHECK(out == NULL);
            CHECK(e.status != MMD_OK && e.msg[0]);
        }
    }
    printf("# flips: %d loaded, %d rejected\n", ok, failed);
    CHECK(failed > 0);
    free(c);
    free(b);
}

TEST(writer_rejects_unfit_indices)
{
    mmd_model *m = build_full(0, 0, 0);
    m->index_size[3] = 1;
    m->bones[1].parent = 300; /* does not fit a signed byte */
    uint8_t *b = NULL;
    size_t n = 0;
    mmd_error e;
    CHECK_EQ_INT(mmd_pmx_write(m, &b, &n, &e), MMD_E_BAD_INDEX);
    CHECK(b == NULL);
    CHECK_STR(e.section, "pmx.bone");
    CHECK_EQ_INT(e.item, 1);
    m->bones[1].parent = 0;
    m->index_size[0] = 3;
    CHECK_EQ_INT(mmd_pmx_write(m, &b, &n, &e), MMD_E_BAD_HEADER);
    mmd_model_free(m);
}

TEST(gene_light_round_trip)
{
    char path[512];
    snprintf(path, sizeof path, "%s/gene/Gene_light.pmx", MMD_SHARED_ASSETS);
    struct stat st;
    if (stat(path, &st) != 0)
        SKIP("skipped: no ../shared");
    mmd_model *m = NULL;
    REQUIRE(mmd_model_load_file(path, &m, NULL) == MMD_OK);
    uint8_t *b;
    size_t n;
    mmd_model *r = round_trip(m, &b, &n);
    CHECK_EQ_INT(compare_models(m, r), 0);
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(r->index_size[i], m->index_size[i]);
    /* the writer's output has exactly the original's size (same index widths) */
    CHECK_EQ_INT(n, st.st_size);
    free(b);
    mmd_model_free(r);
    mmd_model_free(m);
}

int main(void)
{
    RUN(round_trip_20_utf16);
    RUN(round_trip_21_utf16_uv4);
    RUN(round_trip_21_utf8_uv2);
    RUN(round_trip_forced_index_sizes);
    RUN(parsed_values);
    RUN(header_checks);
    RUN(structural_errors_name_the_element);
    RUN(truncation_sweep_20);
    RUN(truncation_sweep_21);
    RUN(random_byte_flips);
    RUN(writer_rejects_unfit_indices);
    RUN(gene_light_round_trip);
    return test_finish();
}
