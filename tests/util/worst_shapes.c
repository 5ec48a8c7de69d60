/* tests/util/worst_shapes.c - worst-case model shapes (see worst_shapes.h). */
#include "tests/util/worst_shapes.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/pmx_write.h"
#include "tests/util/pmd_writer.h"

const char *mmd_test_worst_name(int shape)
{
    static const char *const names[MMD_WORST_COUNT] = {
        "pmd-chain-65535", "pmx-append-chain-65536", "pmx-ik-64x1024-links", "pmx-morph-1Mi-offsets-1-vertex",
        "pmx-group-morph-65535-groups", "pmd-65536-materials-textures"};
    return shape >= 0 && shape < MMD_WORST_COUNT ? names[shape] : "?";
}

static mmd_bone *chain(mmd_model *m, uint32_t n)
{
    mmd_bone *b = mmd_model_add_bones(m, n);
    for (uint32_t i = 0; b && i < n; i++) {
        b[i].parent = (int32_t)i - 1;
        b[i].position[1] = (float)i * 0.01f;
    }
    return b;
}

static int pmx_append_chain(mmd_model *m)
{
    mmd_bone *b = chain(m, 65536);
    if (!b)
        return -1;
    for (uint32_t i = 1; i < 65536; i++) {
        b[i].flags |= MMD_BONE_APPEND_ROTATE;
        b[i].append_parent = (int32_t)i - 1;
        b[i].append_ratio = 0.5f;
    }
    return 0;
}

static int ik_links(mmd_model *m)
{
    const uint32_t links = 1024, iks = 64, n = links + 1 + iks;
    mmd_bone *b = mmd_model_add_bones(m, n); /* the chain, then the IK bones */
    if (!b)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        b[i].parent = i <= links ? (int32_t)i - 1 : -1;
        b[i].position[1] = (float)i * 0.01f;
    }
    for (uint32_t k = 0; k < iks; k++) {
        mmd_bone *ik = &b[links + 1 + k];
        ik->flags |= MMD_BONE_IK;
        ik->ik_target = (int32_t)links;
        ik->ik_loop = 1;
        ik->ik_limit_angle = 0.1f;
        ik->ik_link_count = links;
        ik->ik_links = mmd_model_alloc(m, links, sizeof *ik->ik_links);
        if (!ik->ik_links)
            return -1;
        for (uint32_t j = 0; j < links; j++)
            ik->ik_links[j].bone = (int32_t)(links - 1 - j);
    }
    return 0;
}

static int morph_one_vertex(mmd_model *m)
{
    const uint32_t n = 1u << 20;
    mmd_bone *b = mmd_model_add_bones(m, 1);
    mmd_vertex *v = mmd_model_add_vertices(m, 1);
    mmd_morph *mo = mmd_model_add_morphs(m, 1);
    if (!b || !v || !mo)
        return -1;
    mo->type = MMD_MORPH_VERTEX;
    mo->offset_count = n;
    mo->u.vertex = mmd_model_alloc(m, n, sizeof *mo->u.vertex);
    if (!mo->u.vertex)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        mo->u.vertex[i].offset[1] = 1e-6f;
    return 0;
}

static int group_morphs(mmd_model *m)
{
    const uint32_t n = 65536;
    mmd_morph *mo = mmd_model_add_morphs(m, n);
    if (!mmd_model_add_bones(m, 1) || !mo)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        mo[i].type = MMD_MORPH_GROUP;
    mo[0].offset_count = n - 1;
    mo[0].u.group = mmd_model_alloc(m, n - 1, sizeof *mo[0].u.group);
    if (!mo[0].u.group)
        return -1;
    for (uint32_t i = 1; i < n; i++) {
        mo[0].u.group[i - 1].morph = (int32_t)i;
        mo[0].u.group[i - 1].weight = 1.0f;
    }
    return 0;
}

uint8_t *mmd_test_worst(int shape, size_t *size)
{
    if (shape == MMD_WORST_PMD_CHAIN)
        return mmd_test_pmd_chain(65535, size);
    if (shape == MMD_WORST_PMD_TEXTURES)
        return mmd_test_pmd_textures(65536, size);
    mmd_model *m = mmd_model_new();
    if (!m)
        return NULL;
    int rc = -1;
    switch (shape) {
    case MMD_WORST_PMX_CHAIN: rc = pmx_append_chain(m); break;
    case MMD_WORST_IK_LINKS: rc = ik_links(m); break;
    case MMD_WORST_MORPH_VERTEX: rc = morph_one_vertex(m); break;
    case MMD_WORST_GROUP_MORPHS: rc = group_morphs(m); break;
    default: break;
    }
    uint8_t *out = NULL;
    mmd_error err;
    if (rc == 0 && mmd_pmx_write(m, &out, size, &err) != MMD_OK) {
        fprintf(stderr, "worst_shapes: %s: %s\n", mmd_test_worst_name(shape), err.msg);
        out = NULL;
    }
    mmd_model_free(m);
    return out;
}
