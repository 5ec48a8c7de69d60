/* tools/mkcorpus.c - write the fuzz seed corpus: mkcorpus DIR
 *
 * Every seed is generated here (no real or licensed files): textures in each
 * format the image loader detects, scene files covering every section and key,
 * and (once core/pmx_write.h and core/vmd_write.h exist) models and motions from
 * our own writers. Creates DIR/<target>/<name>; existing files are overwritten.
 * `make fuzz-corpus` runs it into tests/fuzz/corpus.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image_write.h>

#include "core/model.h"
#include "tests/fuzz/fixtures.h"
#include "tests/util/dds_writer.h"
#include "tests/util/pmd_writer.h"

static const char *g_root;
static int g_count;

static void put(const char *target, const char *name, const void *data, size_t size)
{
    char dir[512], path[640];
    snprintf(dir, sizeof dir, "%s/%s", g_root, target);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "mkcorpus: cannot create %s\n", dir);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "mkcorpus: cannot write %s\n", path);
        exit(1);
    }
    g_count++;
}

static void put_text(const char *target, const char *name, const char *text)
{
    put(target, name, text, strlen(text));
}

/* ---- textures ---------------------------------------------------------------------------- */

typedef struct membuf { uint8_t *p; size_t n, cap; } membuf;

static void mem_write(void *ctx, void *data, int size)
{
    membuf *b = ctx;
    if (size <= 0)
        return;
    if (b->n + (size_t)size > b->cap) {
        size_t cap = (b->n + (size_t)size) * 2;
        uint8_t *np = realloc(b->p, cap);
        if (!np)
            exit(1);
        b->p = np, b->cap = cap;
    }
    memcpy(b->p + b->n, data, (size_t)size);
    b->n += (size_t)size;
}

static void pattern(uint8_t *px, int w, int h, int comp, int alpha_hole)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * (size_t)comp;
            p[0] = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1));
            if (comp > 1)
                p[1] = (uint8_t)(y * 255 / (h > 1 ? h - 1 : 1));
            if (comp > 2)
                p[2] = (uint8_t)((x ^ y) & 1 ? 200 : 40);
            if (comp > 3)
                p[3] = (uint8_t)(alpha_hole && x == y ? 0 : 255);
        }
}

/* DDS through our writer (tests/util/dds_writer.h): 2D DXT, A8R8G8B8 and
 * volume textures and cube maps in the uncompressed formats decode.c reads. */
static void put_dds_desc(const char *name, const mmd_test_dds *f)
{
    size_t n;
    uint8_t *d = mmd_test_dds_file(f, NULL, &n);
    if (!d)
        exit(1);
    put("texture", name, d, n);
    free(d);
}

static void put_dds(const char *name, int w, int h, int mips, const char *fourcc)
{
    mmd_test_dds f = {.width = w, .height = h, .mips = mips, .fourcc = fourcc,
                      .pf_flags = MMD_DDPF_RGB | MMD_DDPF_ALPHAPIXELS, .bpp = 32,
                      .mask = {0x00ff0000u, 0x0000ff00u, 0x000000ffu, 0xff000000u}};
    put_dds_desc(name, &f);
}

/* The formats stb_image decodes besides ours (HDR, PSD, PIC, PNM) and a
 * colour-mapped and a grey TGA: the sniffer in renderer/image/decode.c must
 * refuse the first four by their bytes whatever follows, and pass TGA on. */
static void make_refused_textures(void)
{
    static const char hdr[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 16\n"
                              "\x02\x02\x00\x10\x82\x40\x82\x40\x82\x40\x82\x80";
    put("texture", "rle16x2.hdr", hdr, sizeof hdr - 1);
    static const char ppm[] = "P6\n2 2\n255\n\xff\x00\x00\x00\xff\x00\x00\x00\xff\xff\xff\xff";
    put("texture", "rgb2x2.ppm", ppm, sizeof ppm - 1);
    static const char pgm[] = "P5 3 1 255 \x10\x80\xf0";
    put("texture", "grey3x1.pgm", pgm, sizeof pgm - 1);
    uint8_t psd[26 + 4 * 4 + 2 + 3 * 4] = {'8', 'B', 'P', 'S', 0, 1};
    psd[13] = 3, psd[17] = 2, psd[21] = 2, psd[23] = 8, psd[25] = 3; /* 3 channels, 2x2, 8 bit, RGB */
    put("texture", "rgb2x2.psd", psd, sizeof psd);
    uint8_t pic[104] = {0x53, 0x80, 0xf6, 0x34};
    memcpy(pic + 88, "PICT", 4);
    pic[92] = 0, pic[93] = 2, pic[94] = 0, pic[95] = 2; /* 2x2 */
    put("texture", "rgb2x2.pic", pic, sizeof pic);
    /* TGA type 1 (colour-mapped, 2 entries of 24 bit) and type 3 (grey), 2x1 */
    static const uint8_t tga_map[] = {0, 1, 1, 0, 0, 2, 0, 24, 0, 0, 0, 0, 2, 0, 1, 0, 8, 0,
                                      0, 0, 255, 255, 255, 255, 0, 1};
    put("texture", "map2x1.tga", tga_map, sizeof tga_map);
    static const uint8_t tga_grey[] = {0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 8, 0, 40, 200};
    put("texture", "grey2x1.tga", tga_grey, sizeof tga_grey);
}

static void make_textures(void)
{
    uint8_t px[16 * 16 * 4];
    membuf b = {0};
    pattern(px, 8, 8, 4, 1);
    stbi_write_png_to_func(mem_write, &b, 8, 8, 4, px, 8 * 4);
    put("texture", "rgba8x8.png", b.p, b.n), b.n = 0;
    pattern(px, 5, 3, 3, 0);
    stbi_write_png_to_func(mem_write, &b, 5, 3, 3, px, 5 * 3);
    put("texture", "rgb5x3.png", b.p, b.n), b.n = 0;
    pattern(px, 4, 4, 1, 0);
    stbi_write_png_to_func(mem_write, &b, 4, 4, 1, px, 4);
    put("texture", "grey4.png", b.p, b.n), b.n = 0;
    pattern(px, 6, 5, 3, 0);
    stbi_write_bmp_to_func(mem_write, &b, 6, 5, 3, px);
    put("texture", "rgb6x5.bmp", b.p, b.n), b.n = 0;
    pattern(px, 4, 4, 4, 1);
    stbi_write_bmp_to_func(mem_write, &b, 4, 4, 4, px);
    put("texture", "rgba4.bmp", b.p, b.n), b.n = 0;
    pattern(px, 7, 3, 4, 1);
    stbi_write_tga_with_rle = 0;
    stbi_write_tga_to_func(mem_write, &b, 7, 3, 4, px);
    put("texture", "rgba7x3.tga", b.p, b.n), b.n = 0;
    stbi_write_tga_with_rle = 1;
    stbi_write_tga_to_func(mem_write, &b, 7, 3, 4, px);
    put("texture", "rgba7x3_rle.tga", b.p, b.n), b.n = 0;
    pattern(px, 16, 16, 3, 0);
    stbi_write_jpg_to_func(mem_write, &b, 16, 16, 3, px, 80);
    put("texture", "rgb16.jpg", b.p, b.n), b.n = 0;
    free(b.p);
    /* 1x1 GIF89a, one LZW-coded pixel (min code size 2). */
    static const uint8_t gif[] = {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0x80, 0, 0,
                                  0xff, 0xff, 0xff, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0,
                                  2, 2, 0x44, 0x01, 0, 0x3b};
    put("texture", "pixel.gif", gif, sizeof gif);
    put_dds("dxt1_8x8_mips.dds", 8, 8, 4, "DXT1");
    put_dds("dxt3_4x4.dds", 4, 4, 1, "DXT3");
    put_dds("dxt5_6x10_mips.dds", 6, 10, 4, "DXT5");
    put_dds("argb_4x2.dds", 4, 2, 1, NULL);
    put_dds_desc("volume_argb_4x2x3.dds", &(mmd_test_dds){.width = 4, .height = 2, .depth = 3,
                                                          .pf_flags = MMD_DDPF_RGB | MMD_DDPF_ALPHAPIXELS, .bpp = 32,
                                                          .mask = {0xff0000u, 0xff00u, 0xffu, 0xff000000u}});
    put_dds_desc("volume_l8_3x3x2.dds", &(mmd_test_dds){.width = 3, .height = 3, .depth = 2,
                                                        .pf_flags = MMD_DDPF_LUMINANCE, .bpp = 8, .mask = {0xff}});
    put_dds_desc("a8l8_2x2.dds", &(mmd_test_dds){.width = 2, .height = 2, .pf_flags = MMD_DDPF_LUMINANCE |
                                                 MMD_DDPF_ALPHAPIXELS, .bpp = 16, .mask = {0xff, 0, 0, 0xff00}});
    put_dds_desc("r16f_volume_2x2x2.dds", &(mmd_test_dds){.width = 2, .height = 2, .depth = 2, .d3dfmt = 111,
                                                          .bytes = 2});
    put_dds_desc("a32b32g32r32f_1x2.dds", &(mmd_test_dds){.width = 1, .height = 2, .d3dfmt = 116, .bytes = 16});
    put_dds_desc("cube_rgb_2x2_mips.dds", &(mmd_test_dds){.width = 2, .height = 2, .cube = 1, .mips = 2,
                                                          .pf_flags = MMD_DDPF_RGB, .bpp = 24,
                                                          .mask = {0xff0000u, 0xff00u, 0xffu, 0}});
    make_refused_textures();
}

/* ---- models and motions (our writers) -------------------------------------------------- */


/* Write m as PMX, check it loads back (a seed must be valid), store it. */
static void put_pmx(const char *name, mmd_model *m)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    mmd_model *back = NULL;
    if (!m || mmd_pmx_write(m, &buf, &n, &err) != MMD_OK) {
        fprintf(stderr, "mkcorpus: cannot write %s: %s\n", name, m ? err.msg : "out of memory");
        exit(1);
    }
    if (mmd_model_load(buf, n, &back, &err) != MMD_OK) {
        char line[256];
        mmd_error_format(&err, name, line, sizeof line);
        fprintf(stderr, "mkcorpus: generated seed does not load: %s\n", line);
        exit(1);
    }
    mmd_model_free(back);
    put("pmx", name, buf, n);
    free(buf);
    mmd_model_free(m);
}

static void make_pmx(void)
{
    put_pmx("v20_utf16.pmx", fx_model(0));
    put_pmx("v20_utf8_adduv.pmx", fx_model(FX_UTF8 | FX_ADDUV));
    put_pmx("v21_utf8.pmx", fx_model(FX_V21 | FX_UTF8));
    put_pmx("v21_wide_adduv.pmx", fx_model(FX_V21 | FX_WIDE | FX_ADDUV));
    mmd_model *m = mmd_model_new(); /* the smallest valid file: no sections */
    put_pmx("empty.pmx", m);
}

static void make_pmd(void)
{
    static const char *const names[5] = {"core.pmd", "english.pmd", "toon.pmd", "bodies.pmd", "full.pmd"};
    for (int parts = 0; parts < 5; parts++) {
        size_t n = 0;
        uint8_t *d = mmd_test_pmd_fixture(parts, &n, NULL);
        if (!d) {
            fprintf(stderr, "mkcorpus: PMD fixture failed\n");
            exit(1);
        }
        put("pmd", names[parts], d, n);
        free(d);
    }
}

static void make_vmd(void)
{
    mmd_motion *mo = fx_motion();
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    if (!mo || mmd_vmd_write(mo, &buf, &n, &err) != MMD_OK) {
        fprintf(stderr, "mkcorpus: cannot write the VMD fixture\n");
        exit(1);
    }
    put("vmd", "full.vmd", buf, n);
    free(buf);
    mmd_motion_free(mo);
    mmd_motion *cam = mmd_motion_new("\xe3\x82\xab\xe3\x83\xa1\xe3\x83\xa9\xe3\x83\xbb"
                                     "\xe7\x85\xa7\xe6\x98\x8e"); /* camera/light name */
    for (uint32_t k = 0; cam && k < 3; k++)
        mmd_motion_add_camera_key(cam, k * 30u);
    if (!cam || mmd_vmd_write(cam, &buf, &n, &err) != MMD_OK)
        exit(1);
    put("vmd", "camera.vmd", buf, n);
    free(buf);
    mmd_motion_free(cam);
    mmd_motion *one = mmd_motion_new("fixture");
    const float pos[3] = {0, 1, 0}, rot[4] = {0, 0, 0, 1};
    if (!one || !mmd_motion_add_bone_key(one, "center", 0, pos, rot) ||
        mmd_vmd_write(one, &buf, &n, &err) != MMD_OK)
        exit(1);
    put("vmd", "one_key.vmd", buf, n);
    free(buf);
    mmd_motion_free(one);
    /* An old-style v1 header with no sections at all. */
    uint8_t v1[40] = "Vocaloid Motion Data file";
    memcpy(v1 + 30, "fixture", 7);
    put("vmd", "v1_empty.vmd", v1, sizeof v1);
}

static void make_vpd(void)
{
    put_text("vpd", "pose.vpd",
             "Vocaloid Pose Data file\r\n\r\nfixture.osm;\t\t// parent file\r\n"
             "3;\t\t\t\t// bones\r\n\r\n"
             "Bone0{center\r\n  0.000000,1.500000,0.000000;\t\t\t\t// trans x,y,z\r\n"
             "  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\n"
             "Bone1{leg_ik\r\n  0.000000,2.000000,-1.000000;\r\n"
             "  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n\r\n"
             "Bone2{head\r\n  0.000000,0.000000,0.000000;\r\n"
             "  0.258819,0.000000,0.000000,0.965926;\r\n}\r\n\r\n"
             "Morph0{mouth_a\r\n  0.500000;\r\n}\r\n\r\nMorph1{smile\r\n  1.000000;\r\n}\r\n");
    put_text("vpd", "empty.vpd", "Vocaloid Pose Data file\n\nnone.osm;\n0;\n");
    put_text("vpd", "lf_only.vpd",
             "Vocaloid Pose Data file\nx.osm;\n1;\nBone0{knee\n0,0,0;\n0.5,0,0,0.8660254;\n}\n");
}

#include "core/xfile.h"
#include "tests/util/x_fixture.h"

/* Write x in one encoding, check it loads back, store it. */
static void put_x(const char *name, const mmd_xmesh *x, int enc, int bits, bool normals, const float *frame)
{
    size_t n = 0;
    uint8_t *b = x_fixture_bytes(x, enc, bits, normals, frame, &n);
    mmd_xmesh *back = NULL;
    mmd_error err;
    if (mmd_x_load(b, n, &back, &err) != MMD_OK) {
        fprintf(stderr, "mkcorpus: generated seed %s does not load: %s\n", name, err.msg);
        exit(1);
    }
    mmd_x_free(back);
    put("x", name, b, n);
    free(b);
}

static void make_x(void)
{
    mmd_xmesh *s = x_fixture_sample(), *box = x_fixture_box(0, 1, 0, 1, 1, 1);
    const float frame[16] = {0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 3, 1};
    put_x("sample_txt.x", s, 0, 32, true, NULL);
    put_x("sample_bin32.x", s, 1, 32, true, NULL);
    put_x("sample_bin64_frame.x", s, 1, 64, true, frame);
    put_x("sample_tzip.x", s, 2, 32, true, NULL);
    put_x("sample_bzip64.x", s, 3, 64, false, frame);
    put_x("box_txt_nonormals.x", box, 0, 32, false, NULL);
    put_x("box_bzip.x", box, 3, 32, true, frame);
    mmd_x_free(s);
    mmd_x_free(box);
    put_text("x", "quirks.x",
             "xof 0303txt 0064\r\n// comment\r\n"
             "template Header {\r\n <3D82AB43-62DA-11cf-AB39-0020AF71E433>\r\n WORD major;\r\n}\r\n"
             "Header { 1; 0; 1; }\r\n"
             "Material red { 1.0;0.0;0.0;1.0;; 8.0; 0.5;0.5;0.5;; 0.1;0.0;0.0;; "
             "TextureFilename { \"screen.bmp*s.sph\"; } }\r\n"
             "Frame top {\r\n FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,5,1;; }\r\n"
             " Frame inner { Mesh m {\r\n  5;\r\n 0;0;0;, 0;1;0;, 1;1;0;, 1;0;0;, 2;0;0;;\r\n"
             "  2;\r\n 5;0,1,2,3,4;, 3;0,2,3;;\r\n"
             "  MeshMaterialList { 2; 1; 1;; { red } Material { 0;1;0;1;; 1; 0;0;0;; 0;0;0;; } }\r\n"
             "  MeshNormals { 1; 0;0;-1;; 2; 5;0,0,0,0,0;, 3;0,0,0;; }\r\n"
             "  MeshVertexColors { 1; 2;1;0;0;1;;; }\r\n } }\r\n}\r\n");
    put_text("x", "stage.vac", "stage\r\nstage.x\r\n1.5\r\n0,1.25,-2\r\n0,90,0\r\n\r\ncomment\r\n");
    put_text("x", "hand.vac", "\x83\x58\r\nfan.x\r\n1\r\n0,0,0\r\n0,0,0\r\n\x89\x45\x8e\xe8\x8e\xf1\r\n");
}

/* Projects: v2 with every kind of key (two models, outside parent, camera
 * look-at, accessory), the same as v1, and an empty v2 project. */
#include "core/pmm.h"

static mmd_pmm *corpus_project(int version)
{
    static const char *const bones[3] = {"center", "leg_ik", "head"};
    static const char *const morphs[1] = {"mouth_a"};
    static const int32_t ik[1] = {1}, op[2] = {-1, 0};
    mmd_pmm *p = mmd_pmm_new();
    if (!p)
        exit(1);
    p->version = version;
    uint32_t ops = version > 1 ? 2 : 0;
    mmd_pmm_model *a = mmd_pmm_add_model(p, "dancer", "UserFile\\Model\\dancer.pmx", bones, 3, morphs, 1, ik, 1, op, ops);
    mmd_pmm_model *b = mmd_pmm_add_model(p, "fan", "C:\\MMD\\UserFile\\Model\\fan.pmx", bones, 3, NULL, 0, NULL, 0, op, ops);
    if (!a || !b)
        exit(1);
    a = &p->models[0];
    mmd_pmm_add_bone_key(p, a, 0, 30)->position[1] = 2;
    mmd_pmm_add_bone_key(p, a, 2, 15)->rotation[0] = 0.5f;
    mmd_pmm_add_morph_key(p, a, 0, 10)->weight = 1;
    mmd_pmm_add_model_key(p, a, 20)->ik_enabled[0] = false;
    if (version > 1) {
        mmd_pmm_add_model_key(p, &p->models[1], 5)->parents[1] = (mmd_pmm_parent){0, 2};
        mmd_pmm_add_camera_key(p, 40)->look_at = (mmd_pmm_parent){0, 0};
        mmd_pmm_add_gravity_key(p, 12)->acceleration = 3;
        mmd_pmm_add_shadow_key(p, 18)->mode = 2;
    }
    mmd_pmm_add_light_key(p, 25)->color[0] = 1;
    mmd_pmm_accessory *x = mmd_pmm_add_accessory(p, "stage", "UserFile\\Accessory\\stage.x");
    if (!x)
        exit(1);
    mmd_pmm_add_accessory_key(p, x, 8)->parent = (mmd_pmm_parent){1, 0};
    return p;
}

static void put_pmm(const char *name, mmd_pmm *p)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    if (mmd_pmm_write(p, &buf, &n, &err) != MMD_OK) {
        fprintf(stderr, "mkcorpus: cannot write %s: %s\n", name, err.msg);
        exit(1);
    }
    put("pmm", name, buf, n);
    free(buf);
    mmd_pmm_free(p);
}

static void make_pmm(void)
{
    put_pmm("full_v2.pmm", corpus_project(2));
    put_pmm("full_v1.pmm", corpus_project(1));
    mmd_pmm *e = mmd_pmm_new();
    if (!e)
        exit(1);
    put_pmm("empty.pmm", e);
}

static void make_models_and_motions(void)
{
    make_pmm();
    make_x();
    make_pmx();
    make_pmd();
    make_vmd();
    make_vpd();
}

/* ---- scenes ------------------------------------------------------------------------------ */

static void make_scenes(void)
{
    put_text("scene", "full.ini",
             "; every section and key\n"
             "[output]\nwidth = 640\nheight = 360\nfps = 30000/1001\nframes = 10-20\n"
             "antialias = 2\nbackground = #ff8000\n"
             "[camera]\nmotion = cam.vmd\nposition = 1 2.5, -3\nrotation = 90 0 -180\n"
             "distance = -30\nfov = 45\n"
             "[light]\ncolor = 0.5 0.25 1\ndirection = 0 -1 0\n"
             "[model]\nfile = a.pmx\nmotion = d1.vmd\nmotion = d2.vmd\nphysics = off\n"
             "[model:stage]\nfile = sub/b.pmx\n"
             "[audio]\nfile = song.wav\noffset = -0.5\n");
    put_text("scene", "minimal.ini", "[model]\nfile = m.pmx\n");
    put_text("scene", "accessory.ini",
             "[model:miku]\nfile = m.pmx\n[accessory]\nfile = stage.x\n"
             "[accessory:fan]\nfile = fan.vac\nposition = 1 2 -3\nrotation = 0 90 0\nscale = 0.5\n"
             "opacity = 0.25\nparent = miku:head\nvisible = on\nshadow = off\nadd_blend = on\n"
             "after_models = yes\n");
    put_text("scene", "transparent.ini",
             "[output]\nsize = 320x240\nfps = 60\nframes = 0-299\nbackground = transparent\n"
             "[camera]\northographic = on\n[model:a]\nfile = ../x/a.pmd\n[model:b]\n"
             "file = /abs/b.pmx\nphysics = on\n");
    put_text("scene", "values.ini", "30000/1001\n[output]\nwidth = 1e3\nheight = 0x10\n"
                                    "fps = 29.97\nframes = 5\nantialias = 4\n");
    put_text("scene", "bad_key.ini", "[output]\nwidht = 640\n[model]\nfile = a.pmx\n");
    put_text("scene", "crlf.ini", "\xef\xbb\xbf[output]\r\nwidth=64\r\nheight=64\r\n"
                                  "[model]\r\nfile=\xe3\x83\x9f\xe3\x82\xaf.pmx\r\n");
}

/* ---- effects (.fx) ------------------------------------------------------------------------ */

static void make_fx(void)
{
    put_text("fx", "post.fx",
             "float Script : STANDARDSGLOBAL < string ScriptOutput = \"color\"; string ScriptClass = \"scene\";\n"
             "    string ScriptOrder = \"postprocess\"; > = 0.8;\n"
             "float2 ViewportSize : VIEWPORTPIXELSIZE;\n"
             "float Gain : CONTROLOBJECT < string name = \"Ctrl.x\"; string item = \"Si\"; >;\n"
             "texture2D ScnMap : RENDERCOLORTARGET < float2 ViewPortRatio = {1.0, 1.0}; int MipLevels = 1;\n"
             "    string Format = \"A8R8G8B8\"; >;\n"
             "sampler2D ScnSamp = sampler_state { texture = <ScnMap>; MinFilter = LINEAR; AddressU = CLAMP; };\n"
             "struct VS_OUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };\n"
             "VS_OUT VS(float4 Pos : POSITION, float2 Tex : TEXCOORD0) { VS_OUT o; o.Pos = Pos; o.Tex = Tex; return o; }\n"
             "float4 PS(float2 Tex : TEXCOORD0) : COLOR { return tex2D(ScnSamp, Tex) * Gain; }\n"
             "technique Post < string Script = \"RenderColorTarget0=ScnMap;ClearSetColor=C;Clear=Color;\"\n"
             "    \"ScriptExternal=Color;RenderColorTarget0=;Pass=Draw;\"; > {\n"
             "    pass Draw < string Script = \"Draw=Buffer;\"; > {\n"
             "        ZEnable = FALSE; VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS();\n"
             "    }\n}\n");
    put_text("fx", "object.fx",
             "float4x4 WVP : WORLDVIEWPROJECTION;\nfloat4 Diffuse : DIFFUSE < string Object = \"Geometry\"; >;\n"
             "bool use_texture;\ntexture ObjTex : MATERIALTEXTURE;\n"
             "sampler ObjSamp = sampler_state { texture = <ObjTex>; MINFILTER = LINEAR; };\n"
             "float4 VS(float4 p : POSITION, uniform bool t) : POSITION { return mul(p, WVP); }\n"
             "float4 PS(uniform bool t) : COLOR0 { return t ? tex2D(ObjSamp, 0) : Diffuse; }\n"
             "technique MainTec0 < string MMDPass = \"object\"; bool UseTexture = false; > {\n"
             "    pass DrawObject { CullMode = NONE; VertexShader = compile vs_3_0 VS(false);\n"
             "        PixelShader = compile ps_3_0 PS(false); }\n}\n"
             "technique EdgeTec < string MMDPass = \"edge\"; > { }\n"
             "sampler DefSampler : register(s0);\nsampler MMDSamp1 : register( S1 );\n"
             "technique ZplotTec < string MMDPass = \"zplot\"; > { }\n"
             "technique11 T11 { pass P { } }\n");
    put_text("fx", "macros.fx",
             "#define N 4\n#define SQ(x) ((x) * (x))\n#define STR(x) #x\n#define CAT(a, b) a##b\n"
             "#define DECL(t, n) t CAT(P, n) : CONTROLOBJECT < string name = STR(n.pmx); >;\n"
             "#define V(...) float v(__VA_ARGS__) { return 0; }\n"
             "#if defined(N) && N * 2 == 8 && !defined NOPE\nDECL(float3, Light)\n#elif 1\n#error no\n"
             "#else\nint x;\n#endif\n#ifndef N\n#else\nfloat A = SQ(N + \\\n 1);\n#endif\nV(float a, float b)\n"
             "#undef N\n#line 40 \"other.fx\"\n#pragma warning(disable: 3571)\n"
             "#include \"sub\\other.fxsub\"\n");
    put_text("fx", "include_self.fx", "float a;\n#include \"self.fxsub\"\n#include \"d/self.fxsub\"\n");
    put_text("fx", "bomb.fx", "#define a0 x x\n#define a1 a0 a0\n#define a2 a1 a1\n#define a3 a2 a2\n"
                              "#define a4 a3 a3\n#define a5 a4 a4\nfloat v = a5;\n");
    put_text("fx", "sjis.fx", "// \x83\x65\x83\x58\x83\x67\nfloat a < string UIName = \"\x83\x65\x83\x58\"; >;\n");
    put_text("fx", "errors.fx", "float a < string x = \"v\" >;\n/* open\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkcorpus DIR\n");
        return 1;
    }
    g_root = argv[1];
    if (mkdir(g_root, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "mkcorpus: cannot create %s\n", g_root);
        return 1;
    }
    make_textures();
    make_scenes();
    make_fx();
    make_models_and_motions();
    printf("mkcorpus: %d seeds written under %s\n", g_count, g_root);
    return 0;
}
