/* tests/unit/test_morph.c - every morph type on a hand-built model, with
 * hand-computed results: vertex (and its undo), UV, additional UV, bone,
 * material (mul and add accumulated separately, target -1), group, flip,
 * impulse (weights only). */
#include "tests/unit/anim_fixture.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

enum { M_VERT, M_UV, M_AUV1, M_BONE, M_MUL, M_ADD, M_GROUP, M_FLIP, M_IMPULSE, M_COUNT };

static mmd_model *morph_model(void)
{
    mmd_model *m = fx_model(1, 4, M_COUNT, 2);
    mmd_arena *ar = m->arena;
    m->additional_uv_count = 1;
    mmd_morph *mo = m->morphs;
    mo[M_VERT].type = MMD_MORPH_VERTEX, mo[M_VERT].offset_count = 1;
    mo[M_VERT].u.vertex = mmd_arena_array(ar, 1, sizeof(mmd_morph_vertex));
    mo[M_VERT].u.vertex[0] = (mmd_morph_vertex){1, {1, 2, 3}};
    mo[M_UV].type = MMD_MORPH_UV, mo[M_UV].offset_count = 1;
    mo[M_UV].u.uv = mmd_arena_array(ar, 1, sizeof(mmd_morph_uv));
    mo[M_UV].u.uv[0] = (mmd_morph_uv){2, {0.1f, 0.2f, 0, 0}};
    mo[M_AUV1].type = MMD_MORPH_ADD_UV1, mo[M_AUV1].offset_count = 1;
    mo[M_AUV1].u.uv = mmd_arena_array(ar, 1, sizeof(mmd_morph_uv));
    mo[M_AUV1].u.uv[0] = (mmd_morph_uv){3, {1, 2, 3, 4}};
    mo[M_BONE].type = MMD_MORPH_BONE, mo[M_BONE].offset_count = 1;
    mo[M_BONE].u.bone = mmd_arena_array(ar, 1, sizeof(mmd_morph_bone));
    mo[M_BONE].u.bone[0].bone = 0;
    mo[M_BONE].u.bone[0].translation[1] = 1;
    fx_quat(0, 0, 1, (float)M_PI / 2, mo[M_BONE].u.bone[0].rotation);
    mo[M_MUL].type = MMD_MORPH_MATERIAL, mo[M_MUL].offset_count = 1;
    mo[M_MUL].u.material = mmd_arena_array(ar, 1, sizeof(mmd_morph_material));
    mmd_morph_material *mm = mo[M_MUL].u.material;
    mm->material = 0, mm->op = 0;
    for (int c = 0; c < 4; c++)
        mm->diffuse[c] = 0.5f, mm->edge_color[c] = 1, mm->texture_tint[c] = 0.5f, mm->sphere_tint[c] = 1,
        mm->toon_tint[c] = 1;
    for (int c = 0; c < 3; c++)
        mm->specular[c] = 1, mm->ambient[c] = 1;
    mm->specular_power = 2, mm->edge_size = 1;
    mo[M_ADD].type = MMD_MORPH_MATERIAL, mo[M_ADD].offset_count = 1;
    mo[M_ADD].u.material = mmd_arena_array(ar, 1, sizeof(mmd_morph_material));
    mm = mo[M_ADD].u.material;
    mm->material = -1, mm->op = 1;
    for (int c = 0; c < 4; c++)
        mm->diffuse[c] = 0.1f, mm->sphere_tint[c] = 0.2f;
    mo[M_GROUP].type = MMD_MORPH_GROUP, mo[M_GROUP].offset_count = 3;
    mo[M_GROUP].u.group = mmd_arena_array(ar, 3, sizeof(mmd_morph_group));
    mo[M_GROUP].u.group[0] = (mmd_morph_group){M_VERT, 0.5f};
    mo[M_GROUP].u.group[1] = (mmd_morph_group){M_MUL, 1};
    mo[M_GROUP].u.group[2] = (mmd_morph_group){M_GROUP, 1}; /* self: ignored */
    mo[M_FLIP].type = MMD_MORPH_FLIP, mo[M_FLIP].offset_count = 2;
    mo[M_FLIP].u.group = mmd_arena_array(ar, 2, sizeof(mmd_morph_group));
    mo[M_FLIP].u.group[0] = (mmd_morph_group){M_VERT, 1};
    mo[M_FLIP].u.group[1] = (mmd_morph_group){M_UV, 1};
    mo[M_IMPULSE].type = MMD_MORPH_IMPULSE, mo[M_IMPULSE].offset_count = 1;
    mo[M_IMPULSE].u.impulse = mmd_arena_array(ar, 1, sizeof(mmd_morph_impulse));
    for (int v = 0; v < 4; v++)
        m->vertices[v].position[0] = (float)v;
    return m;
}

/* One key per (morph, weight) at frame 0 and weight 0 at frame 10. */
static mmd_anim *with_weights(mmd_model *m, mmd_motion **mo, const int *ids, const float *w, int n)
{
    *mo = fx_motion(0, 2 * n);
    char name[8];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "m%d", ids[i]);
        fx_morph_key(*mo, 2 * i, name, 0, w[i]);
        fx_morph_key(*mo, 2 * i + 1, name, 10, 0);
    }
    const mmd_motion *list[1] = {*mo};
    mmd_anim *a = NULL;
    if (mmd_anim_create(m, list, 1, &a, NULL) != MMD_OK)
        return NULL;
    mmd_anim_evaluate(a, 0);
    return a;
}

TEST(vertex_uv_add_uv_and_undo)
{
    mmd_model *m = morph_model();
    mmd_motion *mo;
    int ids[3] = {M_VERT, M_UV, M_AUV1};
    float w[3] = {0.5f, 1, 0.5f};
    mmd_anim *a = with_weights(m, &mo, ids, w, 3);
    REQUIRE(a);
    float pos[12], nrm[12];
    mmd_anim_skin(a, 0, 4, pos, nrm);
    CHECK_NEAR(pos[3], 1.5, 1e-6);
    CHECK_NEAR(pos[4], 1, 1e-6);
    CHECK_NEAR(pos[5], 1.5, 1e-6);
    CHECK_NEAR(nrm[5], -1, 1e-6);
    CHECK_NEAR(mmd_anim_uvs(a)[4], 0.1, 1e-7);
    CHECK_NEAR(mmd_anim_uvs(a)[5], 0.2, 1e-7);
    const float *au = mmd_anim_add_uvs(a, 0);
    REQUIRE(au);
    CHECK_NEAR(au[12], 0.5, 1e-7);
    CHECK_NEAR(au[15], 2, 1e-7);
    CHECK(mmd_anim_add_uvs(a, 1) == NULL);
    mmd_anim_evaluate(a, 5); /* linear: half the weights */
    mmd_anim_skin(a, 1, 1, pos, nrm);
    CHECK_NEAR(pos[0], 1.25, 1e-6);
    CHECK_NEAR(mmd_anim_uvs(a)[4], 0.05, 1e-7);
    mmd_anim_evaluate(a, 10); /* weights 0: everything back */
    mmd_anim_skin(a, 0, 4, pos, nrm);
    CHECK_NEAR(pos[3], 1, 0);
    CHECK_NEAR(pos[4], 0, 0);
    CHECK_NEAR(mmd_anim_uvs(a)[4], 0, 0);
    CHECK_NEAR(au[12], 0, 0);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(bone_morph)
{
    mmd_model *m = morph_model();
    mmd_motion *mo;
    int ids[1] = {M_BONE};
    float w[1] = {0.5f};
    mmd_anim *a = with_weights(m, &mo, ids, w, 1);
    REQUIRE(a);
    const float *wm = mmd_anim_world(a);
    CHECK_NEAR(wm[13], 0.5, 1e-6);            /* translation x w */
    CHECK_NEAR(wm[0], cos(M_PI / 4), 1e-6);   /* slerp(I, 90 deg, 0.5) */
    CHECK_NEAR(wm[1], sin(M_PI / 4), 1e-6);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(material_mul_add)
{
    mmd_model *m = morph_model();
    mmd_motion *mo;
    int ids[2] = {M_MUL, M_ADD};
    float w[2] = {0.5f, 1};
    mmd_anim *a = with_weights(m, &mo, ids, w, 2);
    REQUIRE(a);
    const mmd_material_state *s = mmd_anim_materials(a);
    CHECK_NEAR(s[0].diffuse[0], 0.5 * 0.75 + 0.1, 1e-6); /* base x lerp(1,.5,.5) + add */
    CHECK_NEAR(s[1].diffuse[0], 0.5 + 0.1, 1e-6);        /* add targets all */
    CHECK_NEAR(s[0].specular_power, 5 * 1.5, 1e-5);      /* lerp(1, 2, .5) */
    CHECK_NEAR(s[0].texture_mul[0], 0.75, 1e-6);
    CHECK_NEAR(s[1].texture_mul[0], 1, 0);
    CHECK_NEAR(s[0].sphere_add[2], 0.2, 1e-6);
    CHECK_NEAR(s[1].sphere_add[3], 0.2, 1e-6);
    CHECK_NEAR(s[0].toon_mul[0], 1, 1e-7);
    mmd_anim_evaluate(a, 20);
    CHECK_NEAR(s[0].diffuse[0], 0.5, 1e-7);
    CHECK_NEAR(s[0].sphere_add[2], 0, 0);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(group_flip_impulse)
{
    mmd_model *m = morph_model();
    mmd_motion *mo;
    int ids[3] = {M_GROUP, M_VERT, M_IMPULSE};
    float w[3] = {1, 0.25f, 0.7f};
    mmd_anim *a = with_weights(m, &mo, ids, w, 3);
    REQUIRE(a);
    const float *mw = mmd_anim_morph_weights(a), *raw = mmd_anim_morph_weights_raw(a);
    CHECK_NEAR(mw[M_VERT], 0.25 + 0.5, 1e-7); /* own + group x ratio */
    CHECK_NEAR(raw[M_VERT], 0.25, 1e-7);
    CHECK_NEAR(mw[M_MUL], 1, 1e-7);
    CHECK_NEAR(mw[M_IMPULSE], 0.7, 1e-7);
    CHECK_NEAR(mmd_anim_materials(a)[0].diffuse[0], 0.25, 1e-6);
    float pos[3], nrm[3];
    mmd_anim_skin(a, 1, 1, pos, nrm);
    CHECK_NEAR(pos[0], 1.75, 1e-6);
    mmd_anim_free(a);
    fx_free_motion(mo);
    /* flip: n = 2; w = 0.4 -> child floor(3 x 0.4) - 1 = 0; w = 0.9 -> child 1 */
    int fid[1] = {M_FLIP};
    float fw[1] = {0.4f};
    a = with_weights(m, &mo, fid, fw, 1);
    REQUIRE(a);
    CHECK_NEAR(mmd_anim_morph_weights(a)[M_VERT], 1, 1e-7);
    CHECK_NEAR(mmd_anim_morph_weights(a)[M_UV], 0, 0);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fw[0] = 0.9f;
    a = with_weights(m, &mo, fid, fw, 1);
    REQUIRE(a);
    CHECK_NEAR(mmd_anim_morph_weights(a)[M_VERT], 0, 0);
    CHECK_NEAR(mmd_anim_morph_weights(a)[M_UV], 1, 1e-7);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

int main(void)
{
    RUN(vertex_uv_add_uv_and_undo);
    RUN(bone_morph);
    RUN(material_mul_add);
    RUN(group_flip_impulse);
    return test_finish();
}
