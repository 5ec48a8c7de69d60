/* tests/unit/test_xfile.c - the .x reader/writer, .vac and the accessory placement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accessory.h"
#include "core/model.h"
#include "core/xfile.h"
#include "core/xfile_internal.h"
#include "core/xfile_write.h"
#include "tests/util/bombs.h"
#include "tests/util/test.h"
#include "tests/util/x_fixture.h"

TEST_STATE_DEFINE

static mmd_xmesh *sample(void) { return x_fixture_sample(); }

static uint8_t *write_as(const mmd_xmesh *x, int enc, int bits, bool normals, const float *frame, size_t *n)
{
    return x_fixture_bytes(x, enc, bits, normals, frame, n);
}

static mmd_xmesh *load(const void *b, size_t n, mmd_error *err)
{
    mmd_xmesh *x = NULL;
    if (mmd_x_load(b, n, &x, err) != MMD_OK)
        return NULL;
    return x;
}

static bool same_mesh(const mmd_xmesh *a, const mmd_xmesh *b)
{
    if (a->mesh.vertex_count != b->mesh.vertex_count || a->mesh.index_count != b->mesh.index_count ||
        a->mesh.material_count != b->mesh.material_count)
        return false;
    if (memcmp(a->mesh.vertices, b->mesh.vertices, a->mesh.vertex_count * sizeof *a->mesh.vertices) ||
        memcmp(a->mesh.indices, b->mesh.indices, a->mesh.index_count * sizeof *a->mesh.indices))
        return false;
    for (uint32_t k = 0; k < a->mesh.material_count; k++) {
        const mmd_accessory_material *p = &a->mesh.materials[k], *q = &b->mesh.materials[k];
        if (memcmp(p->diffuse, q->diffuse, sizeof p->diffuse) || p->power != q->power ||
            memcmp(p->specular, q->specular, sizeof p->specular) || memcmp(p->emissive, q->emissive, sizeof p->emissive) ||
            strcmp(p->texture, q->texture) || strcmp(p->sphere, q->sphere) || p->sphere_mode != q->sphere_mode ||
            p->index_count != q->index_count)
            return false;
    }
    return true;
}

TEST(round_trip_every_encoding_identical)
{
    mmd_xmesh *src = sample();
    REQUIRE(src);
    mmd_xmesh *first = NULL;
    static const int enc[][2] = {{MMD_X_TEXT, 32}, {MMD_X_BINARY, 32}, {MMD_X_BINARY, 64}, {MMD_X_TZIP, 32},
                                 {MMD_X_BZIP, 32}, {MMD_X_BZIP, 64}};
    for (int i = 0; i < 6; i++) {
        size_t n;
        uint8_t *b = write_as(src, enc[i][0], enc[i][1], true, NULL, &n);
        REQUIRE(b);
        mmd_error err;
        mmd_xmesh *x = load(b, n, &err);
        if (!x)
            printf("#   encoding %d: %s at %lld\n", i, err.msg, (long long)err.offset);
        REQUIRE(x);
        CHECK_EQ_INT(x->encoding, enc[i][0]);
        CHECK_EQ_INT(x->float_bits, enc[i][1]);
        CHECK(same_mesh(x, src));
        CHECK(x->has_normals && x->has_uvs && x->has_colors);
        CHECK_EQ_INT(x->mesh_count, 1);
        CHECK_EQ_INT(x->face_count, 3);
        if (first)
            CHECK(same_mesh(first, x));
        else
            first = x;
        if (x != first)
            mmd_x_free(x);
        free(b);
    }
    CHECK_STR(first->mesh.materials[1].texture, "テクスチャ.png");
    CHECK_STR(first->mesh.materials[1].sphere, "env.spa");
    CHECK_EQ_INT(first->mesh.materials[1].sphere_mode, MMD_SPHERE_ADD);
    CHECK_NEAR(first->mesh.vertices[3].uv[1], 0.0, 0);
    CHECK_NEAR(first->mesh.vertices[0].color[0], 0.5, 0);
    mmd_x_free(first);
    mmd_x_free(src);
}

TEST(text_header_and_computed_normals)
{
    mmd_xmesh *src = sample();
    size_t n;
    uint8_t *b = write_as(src, MMD_X_TEXT, 32, false, NULL, &n);
    REQUIRE(b);
    CHECK(memcmp(b, "xof 0302txt 0032", 16) == 0);
    mmd_xmesh *x = load(b, n, NULL);
    REQUIRE(x);
    CHECK(!x->has_normals);
    /* the quad lies in z = 0, clockwise seen from -z: its normal points to -z */
    CHECK_NEAR(x->mesh.vertices[0].normal[2], -1.0, 1e-6);
    CHECK_NEAR(x->mesh.vertices[1].normal[0], 0.0, 1e-6);
    mmd_x_free(x);
    free(b);
    mmd_x_free(src);
}

TEST(frame_transform_applies)
{
    mmd_xmesh *src = sample();
    /* translate (1,2,3) after a scale of 2 (D3D row-vector order, read in order) */
    const float m[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
    size_t n;
    uint8_t *b = write_as(src, MMD_X_BINARY, 32, true, m, &n);
    mmd_xmesh *x = load(b, n, NULL);
    REQUIRE(x);
    CHECK_EQ_INT(x->frame_count, 1);
    CHECK_NEAR(x->mesh.vertices[2].position[0], 3.0, 1e-6);
    CHECK_NEAR(x->mesh.vertices[2].position[1], 4.0, 1e-6);
    CHECK_NEAR(x->mesh.vertices[2].position[2], 3.0, 1e-6);
    CHECK_NEAR(x->mesh.vertices[2].normal[2], -1.0, 1e-6); /* uniform scale: normals stay unit */
    mmd_x_free(x);
    free(b);
    mmd_x_free(src);
}

static const char k_quirky[] =
    "xof 0303txt 0064\r\n"
    "// comment\r\n"
    "template Header {\r\n <3D82AB43-62DA-11cf-AB39-0020AF71E433>\r\n WORD major;\r\n WORD minor;\r\n DWORD flags;\r\n}\r\n"
    "Header { 1; 0; 1; }\r\n"
    "Material red { 1.0;0.0;0.0;1.0;; 8.0; 0.5;0.5;0.5;; 0.1;0.0;0.0;; TextureFilename { \"a.bmp*s.SPH\"; } }\r\n"
    "# another comment\r\n"
    "Frame top {\r\n"
    " FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,5,1;; }\r\n"
    " Unknown { 1; 2; { nested } }\r\n"
    " Mesh m {\r\n"
    "  5;\r\n 0;0;0;, 0;1;0;, 1;1;0;, 1;0;0;, 2;0;0;;\r\n"
    "  2;\r\n 5;0,1,2,3,4;, 3;0,2,3;;\r\n"
    "  MeshMaterialList { 2; 1; 1;; { red } Material { 0;1;0;1;; 1; 0;0;0;; 0;0;0;; } }\r\n"
    "  MeshNormals { 1; 0;0;-1;; 2; 5;0,0,0,0,0;, 3;0,0,0;; }\r\n"
    " }\r\n"
    "}\r\n";

TEST(text_quirks_templates_references_polygons)
{
    mmd_error err;
    mmd_xmesh *x = load(k_quirky, sizeof k_quirky - 1, &err);
    if (!x)
        printf("#   %s at 0x%llx\n", err.msg, (long long)err.offset);
    REQUIRE(x);
    CHECK_EQ_INT(x->version, 303);
    CHECK_EQ_INT(x->float_bits, 64);
    CHECK_EQ_INT(x->mesh.material_count, 2);
    /* one material index for two faces: the last repeats, both use material 1 */
    CHECK_EQ_INT(x->mesh.materials[0].index_count, 0);
    CHECK_EQ_INT(x->mesh.materials[1].index_count, 12); /* pentagon = 3 triangles + 1 */
    CHECK_NEAR(x->mesh.materials[0].diffuse[0], 1.0, 0);
    CHECK_NEAR(x->mesh.materials[0].power, 8.0, 0);
    CHECK_STR(x->mesh.materials[0].texture, "a.bmp");
    CHECK_STR(x->mesh.materials[0].sphere, "s.SPH");
    CHECK_EQ_INT(x->mesh.materials[0].sphere_mode, MMD_SPHERE_MUL);
    /* normal indices differ from vertex indices: one vertex per corner */
    CHECK_EQ_INT(x->mesh.vertex_count, 8);
    CHECK_EQ_INT(x->file_vertex_count, 5); /* what the file holds (info prints it) */
    CHECK_NEAR(x->mesh.vertices[0].position[2], 5.0, 0);
    CHECK_NEAR(x->mesh.vertices[7].normal[2], -1.0, 0);
    CHECK_EQ_INT(x->mesh.indices[3], 0);
    CHECK_EQ_INT(x->mesh.indices[4], 2);
    CHECK_EQ_INT(x->mesh.indices[5], 3);
    mmd_x_free(x);
}

static mmd_status load_status(const char *s, mmd_error *err)
{
    mmd_xmesh *x = NULL;
    mmd_status st = mmd_x_load(s, strlen(s), &x, err);
    mmd_x_free(x);
    return st;
}

TEST(errors_name_the_offset)
{
    mmd_error err;
    const char *bad_index = "xof 0302txt 0032\nMesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,7;; }\n";
    CHECK_EQ_INT(load_status(bad_index, &err), MMD_E_BAD_INDEX);
    CHECK_EQ_INT(err.offset, (int64_t)(strstr(bad_index, "3;0,1,7") - bad_index));
    CHECK_STR(err.section, "x.mesh");
    CHECK(strstr(err.msg, "7") != NULL);
    const char *forged = "xof 0302txt 0032\nMesh { 999999; 0;0;0;; }\n";
    CHECK_EQ_INT(load_status(forged, &err), MMD_E_BAD_COUNT);
    CHECK_EQ_INT(err.offset, 24);
    CHECK_EQ_INT(load_status("xof 0302zip 0032", &err), MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(load_status("xof 0202txt 0032", &err), MMD_E_BAD_VERSION);
    CHECK_EQ_INT(load_status("xox 0302txt 0032", &err), MMD_E_BAD_MAGIC);
    CHECK_EQ_INT(load_status("xof 0302txt 0016", &err), MMD_E_BAD_HEADER);
    CHECK_EQ_INT(load_status("xof 0302txt 0032\nMesh { 1; 1.#QNAN;0;0;; 0; }", &err), MMD_E_BAD_STRUCTURE);
    CHECK_EQ_INT(load_status("xof 0302txt 0032\nMesh { 1; 0;0;0;; 0; \"unterminated", &err), MMD_E_TRUNCATED);
    CHECK_EQ_INT(load_status("xof 0302txt 0032\nMaterial { 1;1;1;1;; 1; 0;0;0;; 0;0;0;; }\n"
                             "Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;; MeshMaterialList { 1; 1; 0;; { nosuch } } }",
                             &err),
                 MMD_E_BAD_INDEX);
    CHECK_EQ_INT(load_status("xof 0302txt 0032\nMesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;; "
                             "MeshMaterialList { 2; 1; 0;; Material { 1;1;1;1;; 1; 0;0;0;; 0;0;0;; } } }",
                             &err),
                 MMD_E_BAD_COUNT);
    char deep[2048] = "xof 0302txt 0032\n";
    for (int i = 0; i < 100; i++)
        strcat(deep, "Frame{");
    CHECK_EQ_INT(load_status(deep, &err), MMD_E_LIMIT);
}

TEST(truncation_sweep_every_encoding)
{
    mmd_xmesh *src = sample();
    for (int enc = 0; enc < 4; enc++) {
        size_t n;
        uint8_t *b = write_as(src, enc, 32, true, NULL, &n);
        REQUIRE(b);
        int ok_early = 0;
        /* a bare header is a valid empty file; every longer cut must fail */
        for (size_t k = 0; k + 2 < n; k++) {
            if (k == 16 || k == 17)
                continue;
            uint8_t *cut = malloc(k ? k : 1);
            memcpy(cut, b, k);
            mmd_xmesh *x = NULL;
            mmd_error err;
            if (mmd_x_load(cut, k, &x, &err) == MMD_OK) {
                printf("#   encoding %d: a cut at %zu of %zu loads\n", enc, k, n);
                ok_early++;
                mmd_x_free(x);
            } else {
                CHECK(err.msg[0] != 0);
            }
            free(cut);
        }
        CHECK_EQ_INT(ok_early, 0);
        free(b);
    }
    mmd_x_free(src);
}

TEST(mszip_damage_is_refused)
{
    mmd_xmesh *src = sample();
    size_t n;
    uint8_t *b = write_as(src, MMD_X_TZIP, 32, true, NULL, &n);
    REQUIRE(b);
    mmd_error err;
    uint8_t *c = malloc(n);
    memcpy(c, b, n);
    c[24] = 'X'; /* 'CK' */
    CHECK(load(c, n, &err) == NULL);
    CHECK_EQ_INT(err.status, MMD_E_BAD_MAGIC);
    CHECK_EQ_INT(err.offset, 24);
    memcpy(c, b, n);
    c[16] = 0xff, c[17] = 0xff, c[18] = 0xff, c[19] = 0x7f; /* inflated size */
    CHECK(load(c, n, &err) == NULL);
    CHECK(err.status == MMD_E_LIMIT || err.status == MMD_E_BAD_COUNT);
    memcpy(c, b, n);
    c[40] ^= 0x55; /* deflate data */
    mmd_xmesh *x = load(c, n, &err);
    CHECK(x == NULL || x->mesh.vertex_count == 7);
    mmd_x_free(x);
    free(c);
    free(b);
    mmd_x_free(src);
}

/* Issue 24: a 512 KB tzip inflating ~1000:1 cost 1.5 GB; the ratio cap refuses it
 * before inflating, a small compressible file (under 1 MiB inflated) still loads. */
TEST(mszip_bomb_is_refused_by_ratio)
{
    size_t n = 0;
    uint8_t *b = mmd_bomb_xzip(1000000, false, &n);
    REQUIRE(b);
    CHECK(n < 64 * 1024);
    mmd_error err;
    CHECK(load(b, n, &err) == NULL);
    CHECK_EQ_INT(err.status, MMD_E_LIMIT);
    CHECK_EQ_INT(err.offset, 16);
    CHECK(strstr(err.msg, "compression-ratio limit") != NULL);
    CHECK(strstr(err.msg, "more than 32 times") != NULL);
    free(b);
    b = mmd_bomb_xzip(1000000, true, &n);
    REQUIRE(b);
    CHECK(load(b, n, &err) == NULL);
    CHECK_EQ_INT(err.status, MMD_E_LIMIT);
    free(b);
    b = mmd_bomb_xzip(30000, false, &n); /* about 550 KB inflated: under the free 1 MiB */
    REQUIRE(b);
    mmd_xmesh *x = load(b, n, &err);
    REQUIRE(x);
    CHECK_EQ_INT(x->mesh.index_count, 30000);
    CHECK_EQ_INT(x->mesh.material_count, 1);
    mmd_x_free(x);
    free(b);
}

TEST(shared_assets_real_files)
{
    char path[512];
    snprintf(path, sizeof path, "%s/x/nanoem_test.x", MMD_SHARED_ASSETS);
    FILE *f = fopen(path, "rb");
    if (!f)
        SKIP("skipped: no ../shared");
    fclose(f);
    mmd_xmesh *x = NULL;
    mmd_error err;
    REQUIRE(mmd_x_load_file(path, &x, &err) == MMD_OK);
    CHECK_EQ_INT(x->face_count, 2);
    CHECK_EQ_INT(x->mesh.index_count, 6);
    CHECK_EQ_INT(x->mesh.material_count, 1);
    CHECK_NEAR(x->mesh.materials[0].diffuse[3], 1.0, 0);
    CHECK_NEAR(x->mesh.materials[0].power, 5.0, 0);
    CHECK_EQ_INT(x->mesh.vertex_count, 6); /* one shared normal: one vertex per corner */
    CHECK_EQ_INT(x->file_vertex_count, 4);
    CHECK_NEAR(x->mesh.vertices[0].normal[1], 1.0, 0);
    mmd_x_free(x);
    snprintf(path, sizeof path, "%s/x/ray.x", MMD_SHARED_ASSETS);
    REQUIRE(mmd_x_load_file(path, &x, &err) == MMD_OK);
    CHECK_EQ_INT(x->mesh.index_count, 3);
    CHECK_NEAR(x->mesh.materials[0].diffuse[3], 0.0, 0);
    mmd_x_free(x);
}

TEST(vac_six_lines)
{
    /* name "ステージ" and bone "右手首" in Shift-JIS */
    const char vac[] = "\x83\x58\x83\x65\x81\x5b\x83\x57\r\nstage.x\r\n1.5\r\n0,1.25,-2\r\n0,90,0\r\n"
                       "\x89\x45\x8e\xe8\x8e\xf1\r\ncomment\r\n";
    mmd_vac v;
    mmd_error err;
    REQUIRE(mmd_vac_load(vac, sizeof vac - 1, &v, &err) == MMD_OK);
    CHECK_STR(v.name, "ステージ");
    CHECK_STR(v.x_file, "stage.x");
    CHECK_NEAR(v.scale, 1.5, 0);
    CHECK_NEAR(v.position[1], 1.25, 0);
    CHECK_NEAR(v.position[2], -2, 0);
    CHECK_NEAR(v.rotation[1], 90, 0);
    CHECK_STR(v.bone, "右手首");
    const char five[] = "a\nb.x\n1\n0,0,0\n0,0,0";
    REQUIRE(mmd_vac_load(five, sizeof five - 1, &v, &err) == MMD_OK);
    CHECK_STR(v.bone, "");
    const char bad[] = "a\nb.x\n1\n0,0\n0,0,0\n\n";
    CHECK_EQ_INT(mmd_vac_load(bad, sizeof bad - 1, &v, &err), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(err.item, 4);
    CHECK_EQ_INT(mmd_vac_load("a\nb.x\n", 6, &v, &err), MMD_E_TRUNCATED);
    CHECK_EQ_INT(mmd_vac_load("a\n\n1\n0,0,0\n0,0,0\n\n", 18, &v, &err), MMD_E_BAD_VALUE);
}

TEST(accessory_world_matrix)
{
    mmd_accessory_place p;
    mmd_accessory_place_default(&p);
    CHECK(p.visible && p.shadow && !p.add_blend && !p.after_models);
    p.position[0] = 1, p.position[1] = 2, p.position[2] = 3;
    p.rotation[1] = 90;
    p.scale = 2;
    float m[16];
    mmd_accessory_world(&p, NULL, m);
    /* (1,0,0) -> x20 -> Ry(90) -> (0,0,-20) -> + (1,2,3) */
    CHECK_NEAR(m[0] + m[12], 1.0, 1e-5);
    CHECK_NEAR(m[1] + m[13], 2.0, 1e-5);
    CHECK_NEAR(m[2] + m[14], -17.0, 1e-5);
    const float parent[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1};
    mmd_accessory_world(&p, parent, m);
    CHECK_NEAR(m[12], 11.0, 1e-5);
}

/* Between accessory keys (issue 16, nanoem's Accessory::synchronizeMotion):
 * linear position/Si/Tr, slerped rotation given back in degrees that
 * rebuild the same matrix, stepped flags. */
TEST(accessory_place_mix)
{
    mmd_accessory_place a, b, r;
    mmd_accessory_place_default(&a);
    mmd_accessory_place_default(&b);
    a.rotation[2] = 90;
    a.scale = 0.5f;
    a.opacity = 0.5f;
    a.position[1] = 1;
    b.position[1] = 2;
    b.visible = false;
    mmd_accessory_place_mix(&a, &b, 0.45f, &r);
    CHECK_NEAR(r.position[1], 1.45, 1e-6);
    CHECK_NEAR(r.scale, 0.725, 1e-6);
    CHECK_NEAR(r.opacity, 0.725, 1e-6);
    CHECK_NEAR(r.rotation[2], 49.5, 1e-4);
    CHECK_NEAR(r.rotation[0], 0, 1e-5);
    CHECK(r.visible); /* a's until b's frame */
    mmd_accessory_place_mix(&a, &a, 0.3f, &r); /* equal rotations: exact degrees back */
    CHECK(!memcmp(r.rotation, a.rotation, sizeof a.rotation));
    /* a general rotation: s = 0 and s = 1 rebuild the keys' matrices */
    float deg[2][3] = {{30, -60, 10}, {-120, 45, 170}};
    for (int k = 0; k < 2; k++) {
        mmd_accessory_place p0, p1, m;
        mmd_accessory_place_default(&p0);
        mmd_accessory_place_default(&p1);
        memcpy(p0.rotation, deg[k], sizeof p0.rotation);
        memcpy(p1.rotation, deg[1 - k], sizeof p1.rotation);
        float want[16], got[16];
        mmd_accessory_world(&p0, NULL, want);
        mmd_accessory_place_mix(&p0, &p1, 0, &m);
        mmd_accessory_world(&m, NULL, got);
        for (int i = 0; i < 16; i++)
            CHECK_NEAR(got[i], want[i], 1e-4); /* x10 scale: 1e-5 relative */
    }
    /* gimbal lock (Y = 90): the matrix survives */
    mmd_accessory_place g0, g1, gm;
    mmd_accessory_place_default(&g0);
    mmd_accessory_place_default(&g1);
    g0.rotation[0] = 20, g0.rotation[1] = 90, g0.rotation[2] = 35;
    g1.rotation[0] = 1;
    float want[16], got[16];
    mmd_accessory_world(&g0, NULL, want);
    mmd_accessory_place_mix(&g0, &g1, 0, &gm);
    mmd_accessory_world(&gm, NULL, got);
    for (int i = 0; i < 16; i++)
        CHECK_NEAR(got[i], want[i], 1e-3);
}

int main(void)
{
    RUN(round_trip_every_encoding_identical);
    RUN(text_header_and_computed_normals);
    RUN(frame_transform_applies);
    RUN(text_quirks_templates_references_polygons);
    RUN(errors_name_the_offset);
    RUN(truncation_sweep_every_encoding);
    RUN(mszip_damage_is_refused);
    RUN(mszip_bomb_is_refused_by_ratio);
    RUN(shared_assets_real_files);
    RUN(vac_six_lines);
    RUN(accessory_world_matrix);
    RUN(accessory_place_mix);
    return test_finish();
}
