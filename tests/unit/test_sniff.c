/* tests/unit/test_sniff.c - the format table (core/sniff.h) and the neutral
 * accessory mesh loaded through it (core/accessory.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accessory.h"
#include "core/sniff.h"
#include "core/xfile.h"
#include "tests/util/test.h"
#include "tests/util/x_fixture.h"

TEST_STATE_DEFINE

/* Every row with a signature is found by it (after a BOM only where the row
 * allows one), a cut signature by none; every row by its extension, any case. */
TEST(every_row_by_signature_and_extension)
{
    for (int id = 0; id < MMD_FILE_FORMAT_COUNT; id++) {
        const mmd_sniff_row *f = mmd_sniff_row_of((mmd_file_format)id);
        REQUIRE(f && f->id == (mmd_file_format)id);
        CHECK((f->kind == MMD_KIND_ACCESSORY) == (f->load_accessory != NULL));
        char up[32];
        snprintf(up, sizeof up, "Dir/FILE%s", f->ext);
        for (char *c = up; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        CHECK(mmd_sniff_path(up) == f);
        if (!f->signature_len)
            continue;
        uint8_t buf[64] = {0xEF, 0xBB, 0xBF};
        REQUIRE(f->signature_len + 3 <= sizeof buf);
        memcpy(buf, f->signature, f->signature_len);
        CHECK(mmd_sniff(buf, f->signature_len) == f);
        CHECK(mmd_sniff(buf, f->signature_len - 1) != f);
        memcpy(buf, "\xEF\xBB\xBF", 3);
        memcpy(buf + 3, f->signature, f->signature_len);
        CHECK((mmd_sniff(buf, f->signature_len + 3) == f) == f->bom);
    }
    CHECK(mmd_sniff_row_of(MMD_FILE_FORMAT_COUNT) == NULL);
    CHECK(mmd_sniff(NULL, 0) == NULL);
    CHECK(mmd_sniff("RIFF....", 8) == NULL);
    CHECK(mmd_sniff_path("song.wav") == NULL);
    CHECK(mmd_sniff_path("stage.vac")->kind == MMD_KIND_PLACEMENT);
    CHECK(mmd_sniff("Polygon Movie maker 0002", 24)->id == MMD_FILE_PMM);
}

/* The lists info's "not a ... file" message and its usage name. */
TEST(labels_join_the_kinds_rows)
{
    char b[128];
    CHECK_STR(mmd_sniff_labels(MMD_KIND_MODEL | MMD_KIND_MOTION | MMD_KIND_ACCESSORY, b, sizeof b),
              "PMX, PMD, VMD, VPD or .x");
    CHECK_STR(mmd_sniff_labels(MMD_KIND_MODEL, b, sizeof b), "PMX or PMD");
    CHECK_STR(mmd_sniff_labels(MMD_KIND_ACCESSORY, b, sizeof b), ".x");
    CHECK_STR(mmd_sniff_labels(MMD_KIND_PLACEMENT, b, sizeof b), ""); /* .vac: no signature */
    CHECK_STR(mmd_sniff_labels(MMD_KIND_MODEL | MMD_KIND_MOTION, b, 6), "PMX, ");
    CHECK_STR(mmd_sniff_exts(MMD_KIND_MODEL, b, sizeof b), ".pmx, .pmd"); /* info's usage */
    CHECK_STR(mmd_sniff_exts(MMD_KIND_MOTION | MMD_KIND_ACCESSORY, b, sizeof b), ".vmd, .vpd, .x");
}

/* mmd_accessory_load reads a .x through its row: the mesh mmd_x_load gives;
 * bytes of no accessory signature get the .x reader's error. */
TEST(accessory_load_through_the_table)
{
    mmd_xmesh *src = x_fixture_sample();
    REQUIRE(src);
    for (int enc = 0; enc < 4; enc++) {
        size_t n = 0;
        uint8_t *b = x_fixture_bytes(src, enc, 32, true, NULL, &n);
        REQUIRE(b);
        mmd_xmesh *x = NULL;
        mmd_accessory_mesh *m = NULL;
        mmd_error err;
        REQUIRE(mmd_x_load(b, n, &x, &err) == MMD_OK);
        REQUIRE(mmd_accessory_load(b, n, &m, &err) == MMD_OK);
        CHECK_EQ_INT(m->vertex_count, x->mesh.vertex_count);
        CHECK_EQ_INT(m->index_count, x->mesh.index_count);
        CHECK_EQ_INT(m->material_count, src->mesh.material_count);
        CHECK(!memcmp(m->vertices, x->mesh.vertices, m->vertex_count * sizeof *m->vertices));
        CHECK(!memcmp(m->indices, x->mesh.indices, m->index_count * sizeof *m->indices));
        for (uint32_t k = 0; k < m->material_count; k++) {
            CHECK_STR(m->materials[k].texture, x->mesh.materials[k].texture);
            CHECK_EQ_INT(m->materials[k].index_count, x->mesh.materials[k].index_count);
        }
        CHECK(mmd_accessory_mesh_validate(m, &err) == MMD_OK);
        mmd_accessory_mesh_free(m);
        mmd_x_free(x);
        free(b);
    }
    const char *not_x[] = {"PMX \x00\x00\x00\x40", "Vocaloid Motion Data 0002", "hello, world, no signature"};
    for (int i = 0; i < 3; i++) {
        mmd_accessory_mesh *m = NULL;
        mmd_error err;
        CHECK(mmd_accessory_load(not_x[i], strlen(not_x[i]) + 1, &m, &err) == MMD_E_BAD_MAGIC);
        CHECK(m == NULL);
        CHECK_STR(err.section, "x");
        CHECK_STR(err.msg, "not a DirectX .x file (no 'xof ' header)");
    }
    mmd_accessory_mesh_free(NULL);
    mmd_x_free(src);
}

/* The invariants every reader's mesh holds before the renderer takes it. */
TEST(mesh_validate_names_the_broken_invariant)
{
    mmd_xmesh *x = x_fixture_box(0, 0, 0, 1, 1, 1);
    REQUIRE(x);
    mmd_accessory_mesh *m = &x->mesh;
    mmd_error err;
    CHECK(mmd_accessory_mesh_validate(m, &err) == MMD_OK);
    m->indices[5] = m->vertex_count;
    CHECK(mmd_accessory_mesh_validate(m, &err) == MMD_E_BAD_INDEX);
    CHECK_EQ_INT(err.item, 5);
    m->indices[5] = 0;
    m->materials[0].index_count -= 3;
    CHECK(mmd_accessory_mesh_validate(m, &err) == MMD_E_BAD_COUNT);
    m->materials[0].index_count += 1;
    CHECK(mmd_accessory_mesh_validate(m, &err) == MMD_E_BAD_COUNT);
    CHECK_STR(err.section, "x.material");
    mmd_x_free(x);
}

int main(void)
{
    RUN(every_row_by_signature_and_extension);
    RUN(labels_join_the_kinds_rows);
    RUN(accessory_load_through_the_table);
    RUN(mesh_validate_names_the_broken_invariant);
    return test_finish();
}
