/* tests/unit/test_assets_models.c - every shared .pmx loads and matches the
 * independent structural dump in ../shared/reference/<name>.dump.json. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/model.h"
#include "tests/util/json.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

#define J(obj, key) json_num(json_get((obj), (key)))

/* UTF-16 code units of a UTF-8 string (what a JavaScript .length gives). */
static long utf16_len(const char *s)
{
    long n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p & 0xC0) == 0x80)
            continue;
        n += (*p >= 0xF0) ? 2 : 1;
    }
    return n;
}

static void check_model(const char *rel, const char *refname)
{
    char path[512], refpath[512];
    snprintf(path, sizeof path, "%s/%s", MMD_SHARED_ASSETS, rel);
    snprintf(refpath, sizeof refpath, "%s/%s.dump.json", MMD_SHARED_REFERENCE, refname);
    if (!exists(path) || !exists(refpath))
        SKIP("skipped: no ../shared");
    json_value *ref = json_read_file(refpath);
    REQUIRE(ref != NULL);
    mmd_model *m = NULL;
    mmd_error e;
    mmd_status st = mmd_model_load_file(path, &m, &e);
    if (st != MMD_OK) {
        char buf[300];
        mmd_error_format(&e, path, buf, sizeof buf);
        printf("#   %s\n", buf);
        json_free(ref);
    }
    REQUIRE(st == MMD_OK && m);

    const json_value *h = json_get(ref, "header");
    CHECK_NEAR(m->version, J(h, "version"), 1e-6);
    CHECK_STR(m->encoding == MMD_ENC_UTF8 ? "utf8" : "utf16le", json_str(json_get(h, "encoding")));
    CHECK_EQ_INT(m->additional_uv_count, J(h, "additionalVec4Count"));
    static const char *const isz[6] = {"vertexIndexSize", "textureIndexSize", "materialIndexSize",
                                       "boneIndexSize", "morphIndexSize", "rigidBodyIndexSize"};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(m->index_size[i], J(h, isz[i]));
    CHECK_STR(m->name, json_str(json_get(h, "modelName")));
    CHECK_STR(m->name_en, json_str(json_get(h, "englishModelName")));
    CHECK_EQ_INT(utf16_len(m->comment), J(h, "commentLength"));
    CHECK_EQ_INT(utf16_len(m->comment_en), J(h, "englishCommentLength"));

    const json_value *c = json_get(ref, "counts");
    CHECK_EQ_INT(m->vertex_count, J(c, "vertices"));
    CHECK_EQ_INT(m->index_count, J(c, "indices"));
    CHECK_EQ_INT(m->index_count / 3, J(c, "faces"));
    CHECK_EQ_INT(m->texture_count, J(c, "textures"));
    CHECK_EQ_INT(m->material_count, J(c, "materials"));
    CHECK_EQ_INT(m->bone_count, J(c, "bones"));
    CHECK_EQ_INT(m->morph_count, J(c, "morphs"));
    CHECK_EQ_INT(m->display_frame_count, J(c, "displayFrames"));
    CHECK_EQ_INT(m->rigid_body_count, J(c, "rigidBodies"));
    CHECK_EQ_INT(m->joint_count, J(c, "joints"));
    CHECK_EQ_INT(m->soft_body_count, J(c, "softBodies"));
    long elems = 0, special = 0;
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        elems += m->display_frames[i].element_count;
        special += m->display_frames[i].special;
    }
    CHECK_EQ_INT(elems, J(c, "displayFrameElements"));
    CHECK_EQ_INT(special, J(ref, "specialDisplayFrames"));

    long wt[5] = {0};
    for (uint32_t i = 0; i < m->vertex_count; i++)
        wt[m->vertices[i].weight_type]++;
    const json_value *w = json_get(ref, "vertexWeightTypes");
    static const char *const wn[5] = {"bdef1", "bdef2", "bdef4", "sdef", "qdef"};
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(wt[i], J(w, wn[i]));

    unsigned long long isum = 0;
    for (uint32_t i = 0; i < m->material_count; i++)
        isum += m->materials[i].index_count;
    CHECK_EQ_INT(isum, J(ref, "materialIndexCountSum"));

    static const char *const mn[MMD_MORPH_TYPE_COUNT] = {
        "group", "vertex", "bone", "uv", "additionalUv1", "additionalUv2", "additionalUv3", "additionalUv4",
        "material", "flip", "impulse"};
    long mt[MMD_MORPH_TYPE_COUNT] = {0}, me[MMD_MORPH_TYPE_COUNT] = {0};
    for (uint32_t i = 0; i < m->morph_count; i++) {
        mt[m->morphs[i].type]++;
        me[m->morphs[i].type] += m->morphs[i].offset_count;
    }
    const json_value *mbt = json_get(ref, "morphsByType"), *mec = json_get(ref, "morphElementCounts");
    for (int i = 0; i < MMD_MORPH_TYPE_COUNT; i++) {
        CHECK_EQ_INT(mt[i], J(mbt, mn[i]));
        CHECK_EQ_INT(me[i], J(mec, mn[i]));
    }

    /* bones */
    const json_value *bj = json_get(ref, "bones"), *fl = json_get(bj, "flags");
    static const struct { const char *key; uint16_t bit; } flags[] = {
        {"rotatable", MMD_BONE_ROTATABLE}, {"movable", MMD_BONE_MOVABLE}, {"visible", MMD_BONE_VISIBLE},
        {"controllable", MMD_BONE_OPERABLE}, {"ik", MMD_BONE_IK}, {"localAppend", MMD_BONE_APPEND_LOCAL},
        {"appendRotate", MMD_BONE_APPEND_ROTATE}, {"appendMove", MMD_BONE_APPEND_TRANSLATE},
        {"axisLimit", MMD_BONE_FIXED_AXIS}, {"localVector", MMD_BONE_LOCAL_AXES},
        {"afterPhysics", MMD_BONE_AFTER_PHYSICS}, {"externalParent", MMD_BONE_EXTERNAL_PARENT}};
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        long n = 0;
        for (uint32_t i = 0; i < m->bone_count; i++)
            n += (m->bones[i].flags & flags[f].bit) != 0;
        if (json_get(fl, flags[f].key))
            CHECK_EQ_INT(n, J(fl, flags[f].key));
    }
    long with_ik = 0, links = 0, limited = 0, append = 0, roots = 0, max_layer = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const mmd_bone *b = &m->bones[i];
        if (b->flags & MMD_BONE_IK) {
            with_ik++;
            links += b->ik_link_count;
            for (uint32_t k = 0; k < b->ik_link_count; k++)
                limited += b->ik_links[k].has_limit;
        }
        if ((b->flags & (MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE)))
            append++;
        roots += b->parent < 0;
        if (b->layer > max_layer)
            max_layer = b->layer;
    }
    CHECK_EQ_INT(with_ik, J(bj, "withIk"));
    CHECK_EQ_INT(links, J(bj, "ikLinks"));
    CHECK_EQ_INT(limited, J(bj, "ikLinksWithLimits"));
    CHECK_EQ_INT(append, J(bj, "withAppendTransform"));
    CHECK_EQ_INT(roots, J(bj, "roots"));
    CHECK_EQ_INT(max_layer, J(bj, "maxTransformOrder"));

    long sh[3] = {0}, md[3] = {0}, jt[6] = {0};
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        sh[m->rigid_bodies[i].shape]++;
        md[m->rigid_bodies[i].mode]++;
    }
    for (uint32_t i = 0; i < m->joint_count; i++)
        jt[m->joints[i].type]++;
    const json_value *rs = json_get(ref, "rigidBodiesByShape"), *rm = json_get(ref, "rigidBodiesByMode"),
                     *jj = json_get(ref, "jointsByType");
    CHECK_EQ_INT(sh[0], J(rs, "sphere"));
    CHECK_EQ_INT(sh[1], J(rs, "box"));
    CHECK_EQ_INT(sh[2], J(rs, "capsule"));
    CHECK_EQ_INT(md[0], J(rm, "followBone"));
    CHECK_EQ_INT(md[1], J(rm, "physics"));
    CHECK_EQ_INT(md[2], J(rm, "physicsWithBone"));
    static const char *const jn[6] = {"spring6dof", "sixdof", "p2p", "coneTwist", "slider", "hinge"};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(jt[i], J(jj, jn[i]));

    /* the eval order is a permutation */
    REQUIRE(m->bone_count == 0 || m->eval_order);
    for (uint32_t i = 1; i < m->bone_count; i++) {
        const mmd_bone *a = &m->bones[m->eval_order[i - 1]], *b = &m->bones[m->eval_order[i]];
        int pa = (a->flags & MMD_BONE_AFTER_PHYSICS) != 0, pb = (b->flags & MMD_BONE_AFTER_PHYSICS) != 0;
        CHECK(pa < pb || (pa == pb && (a->layer < b->layer ||
                                       (a->layer == b->layer && m->eval_order[i - 1] < m->eval_order[i]))));
    }
    mmd_model_free(m);
    json_free(ref);
}

TEST(gene_light) { check_model("gene/Gene_light.pmx", "gene_light"); }
TEST(gene_light_names)
{
    char path[512];
    snprintf(path, sizeof path, "%s/gene/Gene_light.pmx", MMD_SHARED_ASSETS);
    if (!exists(path))
        SKIP("skipped: no ../shared");
    mmd_model *m = NULL;
    REQUIRE(mmd_model_load_file(path, &m, NULL) == MMD_OK);
    CHECK(mmd_model_find_bone(m, "センター") >= 0);
    CHECK(mmd_model_find_bone(m, "no such bone") == -1);
    CHECK(mmd_model_find_morph(m, "no such morph") == -1);
    if (m->morph_count)
        CHECK_EQ_INT(mmd_model_find_morph(m, m->morphs[0].name), 0);
    mmd_model_free(m);
}

#define BABYLON(name) \
    TEST(name) { check_model("babylon-mmd-tests/" #name ".pmx", #name); }
BABYLON(bone_flag_test)
BABYLON(bone_hierarchy_test)
BABYLON(bone_hierarchy_test2)
BABYLON(constraint_test)
BABYLON(constraint_test2)
BABYLON(constraint_test3)
BABYLON(constraint_test4)
BABYLON(matcap_sample)
BABYLON(uv_morph_test)

int main(void)
{
    RUN(gene_light);
    RUN(gene_light_names);
    RUN(bone_flag_test);
    RUN(bone_hierarchy_test);
    RUN(bone_hierarchy_test2);
    RUN(constraint_test);
    RUN(constraint_test2);
    RUN(constraint_test3);
    RUN(constraint_test4);
    RUN(matcap_sample);
    RUN(uv_morph_test);
    return test_finish();
}
