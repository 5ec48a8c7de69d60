/* tools/mkdemo.c - generate the demo scene's assets with our own code.
 *
 *     build/tools/mkdemo OUTDIR
 *
 * Writes into OUTDIR: character.pmx (a stylised character with MMD's standard
 * Japanese bone names, leg IK with knee limits, skinned capsule/box parts,
 * textures, toon and sphere maps, edges, morphs, and rigid-body physics:
 * twin-tail hair chains and a skirt, as MMD models rig them), tex_*.png, toon.png,
 * sphere.png, dance.vmd (~10 s, Bezier curves, IK foot keys, mouth/blink
 * morphs), camera.vmd (moves with a cut) and beat.wav (120 BPM kick + hi-hat).
 * Everything is procedural and deterministic (no licensed data).
 */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/pmx_write.h"
#include "core/vmd_write.h"
#include "core/xfile_write.h"
#include "tests/util/hash.h"
#include "tests/util/x_fixture.h"


#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

/* ---- small utilities ------------------------------------------------------ */

static int write_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "mkdemo: cannot write %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

static int write_png(const char *dir, const char *name, int w, int h, const uint8_t *rgba)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "mkdemo: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        fprintf(stderr, "mkdemo: PNG error writing %s\n", path);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, rgba + (size_t)y * (size_t)w * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? 0 : -1;
}

static void put(uint8_t *px, int w, int x, int y, int r, int g, int b, int a)
{
    uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
    p[0] = (uint8_t)r;
    p[1] = (uint8_t)g;
    p[2] = (uint8_t)b;
    p[3] = (uint8_t)a;
}

/* ---- textures --------------------------------------------------------------- */

static int make_textures(const char *dir)
{
    enum { N = 128 };
    static uint8_t px[N * N * 4];
    int rc = 0;
    /* skin: warm gradient with a faint noise */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            int n = (int)(mmd_hash32((uint32_t)(y * N + x)) % 7);
            put(px, N, x, y, 255 - n, 228 - y / 16 - n, 214 - y / 12 - n, 255);
        }
    rc |= write_png(dir, "tex_skin.png", N, N, px);
    /* hair: teal with darker strands along u */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            int strand = (int)(mmd_hash32((uint32_t)x * 2654435761u) % 40);
            put(px, N, x, y, 40 - strand / 3, 190 - strand, 190 - strand / 2 + y / 8, 255);
        }
    rc |= write_png(dir, "tex_hair.png", N, N, px);
    /* cloth: light grey with a teal stripe and a tie-like band */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            bool stripe = (y % 32) < 4;
            bool band = x >= 60 && x < 68;
            if (band)
                put(px, N, x, y, 30, 170, 170, 255);
            else if (stripe)
                put(px, N, x, y, 60, 60, 70, 255);
            else
                put(px, N, x, y, 225, 228, 232, 255);
        }
    rc |= write_png(dir, "tex_cloth.png", N, N, px);
    /* dark: skirt, boots, sleeves - checker trim near v=1 */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            bool trim = y > N - 16 && ((x / 8 + y / 8) & 1);
            put(px, N, x, y, trim ? 40 : 52, trim ? 180 : 56, trim ? 180 : 64, 255);
        }
    rc |= write_png(dir, "tex_dark.png", N, N, px);
    /* toon: 32x32, lit rows white, soft step to a cool shadow */
    enum { T = 32 };
    static uint8_t tp[T * T * 4];
    for (int y = 0; y < T; y++) {
        double s = y < 14 ? 0 : y > 19 ? 1 : (y - 14) / 5.0;
        for (int x = 0; x < T; x++)
            put(tp, T, x, y, (int)(255 - s * 60), (int)(255 - s * 50), (int)(255 - s * 30), 255);
    }
    rc |= write_png(dir, "toon.png", T, T, tp);
    /* sphere (additive): a soft highlight top-left on black */
    enum { S = 64 };
    static uint8_t sp[S * S * 4];
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            double dx = (x - 22) / 20.0, dy = (y - 20) / 20.0;
            double v = exp(-(dx * dx + dy * dy) * 2.5) * 110;
            put(sp, S, x, y, (int)v, (int)v, (int)v, 255);
        }
    rc |= write_png(dir, "sphere.png", S, S, sp);
    /* face: skin with eyes are separate meshes; blush marks and brows here */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            int r = 255, g = 228 - y / 16, b = 214 - y / 12;
            /* the front of the head is u ~ 0.75 (see sphere_part: u = angle/2pi, front at -Z) */
            double du = (x - 96) / 10.0, dv1 = (y - 70) / 4.0;
            for (int side = -1; side <= 1; side += 2) {
                double cx = (x - (96 + side * 17)) / 6.0;
                if (cx * cx + dv1 * dv1 < 1.0) {
                    r = 250;
                    g = 180;
                    b = 180;
                }
                double bx = (x - (96 + side * 12)) / 7.0, by = (y - 44) / 1.2;
                if (bx * bx + by * by < 1.0) {
                    r = 60;
                    g = 120;
                    b = 120;
                }
            }
            (void)du;
            put(px, N, x, y, r, g, b, 255);
        }
    rc |= write_png(dir, "tex_face.png", N, N, px);
    return rc ? -1 : 0;
}

/* ---- audio -------------------------------------------------------------------- */

static int make_audio(const char *dir, double seconds)
{
    const int rate = 44100, ch = 2;
    uint32_t n = (uint32_t)(seconds * rate);
    size_t bytes = 44 + (size_t)n * ch * 2;
    uint8_t *w = calloc(1, bytes);
    if (!w)
        return -1;
    uint32_t data = n * ch * 2, riff = (uint32_t)bytes - 8, fmt = 16, br = (uint32_t)rate * ch * 2;
    uint16_t pcm = 1, chn = (uint16_t)ch, align = (uint16_t)(ch * 2), bits = 16;
    uint32_t r = (uint32_t)rate;
    memcpy(w, "RIFF", 4);
    memcpy(w + 4, &riff, 4);
    memcpy(w + 8, "WAVEfmt ", 8);
    memcpy(w + 16, &fmt, 4);
    memcpy(w + 20, &pcm, 2);
    memcpy(w + 22, &chn, 2);
    memcpy(w + 24, &r, 4);
    memcpy(w + 28, &br, 4);
    memcpy(w + 32, &align, 2);
    memcpy(w + 34, &bits, 2);
    memcpy(w + 36, "data", 4);
    memcpy(w + 40, &data, 4);
    const double beat = 0.5; /* 120 BPM */
    static const int bass[8] = {0, 0, 3, 5, 0, 0, 7, 5}; /* semitones over A1, one per beat */
    for (uint32_t i = 0; i < n; i++) {
        double t = (double)i / rate;
        double tb = fmod(t, beat);
        int bi = (int)(t / beat);
        /* kick: pitch sweep 140 -> 45 Hz, fast decay */
        double kf = 45 + 95 * exp(-tb * 30);
        double kick = sin(2 * PI * kf * tb) * exp(-tb * 9) * 0.8;
        /* hi-hat on the off-beat: hashed noise, 40 ms */
        double th = fmod(t + beat / 2, beat);
        double noise = ((double)(mmd_hash32(i * 747796405u + 1) & 0xffff) / 32768.0 - 1.0);
        double hat = th < 0.04 ? noise * exp(-th * 90) * 0.25 : 0;
        /* bass: a saw-ish tone per beat */
        double f = 55.0 * pow(2.0, bass[bi % 8] / 12.0);
        double ph = fmod(t * f, 1.0);
        double bs = (ph * 2 - 1) * 0.12 * exp(-tb * 3);
        double l = kick + hat * 0.8 + bs, rr = kick + hat * 1.2 + bs;
        if (t > seconds - 0.3) { /* fade out */
            double g = (seconds - t) / 0.3;
            l *= g;
            rr *= g;
        }
        int16_t sl = (int16_t)lrint(fmax(-1, fmin(1, l)) * 30000);
        int16_t sr = (int16_t)lrint(fmax(-1, fmin(1, rr)) * 30000);
        memcpy(w + 44 + (size_t)i * 4, &sl, 2);
        memcpy(w + 44 + (size_t)i * 4 + 2, &sr, 2);
    }
    int rc = write_file(dir, "beat.wav", w, bytes);
    free(w);
    return rc;
}

/* ---- VMD (built with core/vmd_write.h) ------------------------------------ */

/* Quaternion (x,y,z,w) from Euler degrees, applied Y then X then Z (MMD's YXZ). */
static void quat_euler(double xd, double yd, double zd, float q[4])
{
    double hx = xd * DEG / 2, hy = yd * DEG / 2, hz = zd * DEG / 2;
    double cx = cos(hx), sx = sin(hx), cy = cos(hy), sy = sin(hy), cz = cos(hz), sz = sin(hz);
    /* q = qy * qx * qz */
    q[0] = (float)(cy * sx * cz + sy * cx * sz);
    q[1] = (float)(sy * cx * cz - cy * sx * sz);
    q[2] = (float)(cy * cx * sz - sy * sx * cz);
    q[3] = (float)(cy * cx * cz + sy * sx * sz);
}

static void bone_key(mmd_motion *m, const char *name, uint32_t frame, double px, double py, double pz,
                     double rx, double ry, double rz, bool ease)
{
    float pos[3] = {(float)px, (float)py, (float)pz}, rot[4];
    quat_euler(rx, ry, rz, rot);
    mmd_bone_key *k = mmd_motion_add_bone_key(m, name, frame, pos, rot);
    if (!k) {
        fprintf(stderr, "mkdemo: out of memory\n");
        exit(1);
    }
    if (ease)
        for (int c = 0; c < 4; c++)
            mmd_vmd_set_bone_curve(k->interp, c, 40, 0, 87, 127); /* ease in-out */
}

static void morph_key(mmd_motion *m, const char *name, uint32_t frame, double w)
{
    if (!mmd_motion_add_morph_key(m, name, frame, (float)w)) {
        fprintf(stderr, "mkdemo: out of memory\n");
        exit(1);
    }
}

static void camera_key(mmd_motion *m, uint32_t frame, double tx, double ty, double tz, double rx_deg,
                       double ry_deg, double dist, uint32_t fov, bool ease)
{
    mmd_camera_key *k = mmd_motion_add_camera_key(m, frame);
    if (!k) {
        fprintf(stderr, "mkdemo: out of memory\n");
        exit(1);
    }
    k->target[0] = (float)tx;
    k->target[1] = (float)ty;
    k->target[2] = (float)tz;
    k->rotation[0] = (float)(rx_deg * DEG);
    k->rotation[1] = (float)(ry_deg * DEG);
    k->distance = (float)dist;
    k->fov = fov;
    if (ease)
        for (int c = 0; c < 6; c++)
            mmd_vmd_set_camera_curve(k->interp, c, 40, 0, 87, 127);
}

static int save_motion(const char *dir, const char *name, mmd_motion *m)
{
    uint8_t *buf;
    size_t size;
    mmd_error err;
    if (mmd_vmd_write(m, &buf, &size, &err) != MMD_OK) {
        fprintf(stderr, "mkdemo: VMD write failed: %s\n", err.msg);
        mmd_motion_free(m);
        return -1;
    }
    int rc = write_file(dir, name, buf, size);
    free(buf);
    mmd_motion_free(m);
    return rc;
}

enum { DANCE_FRAMES = 300 }; /* 10 s at 30 fps */

static int make_dance(const char *dir)
{
    mmd_motion *mb = mmd_motion_new("デモ子");
    if (!mb)
        return -1;
    const int beat = 15; /* frames per beat at 120 BPM */
    for (int f = 0; f <= DANCE_FRAMES; f += beat) {
        int b = f / beat;
        bool intro = f < 2 * beat, outro = f >= DANCE_FRAMES - beat;
        double amp = intro || outro ? 0.0 : 1.0;
        double side = (b % 4 < 2 ? 1.0 : -1.0) * amp;
        /* body bounce: down on the beat, sway side to side every two beats */
        bone_key(mb, "センター", (uint32_t)f, 1.2 * side, -0.8 * amp * (b % 2 == 0), 0, 0, 0, 0, true);
        bone_key(mb, "上半身", (uint32_t)f, 0, 0, 0, 4 * amp, 12 * side, -6 * side, true);
        bone_key(mb, "上半身2", (uint32_t)f, 0, 0, 0, 0, 6 * side, -3 * side, true);
        bone_key(mb, "首", (uint32_t)f, 0, 0, 0, 0, -6 * side, 0, true);
        bone_key(mb, "頭", (uint32_t)f, 0, 0, 0, (b % 2 ? -8 : 6) * amp, -8 * side, 8 * side, true);
        bone_key(mb, "下半身", (uint32_t)f, 0, 0, 0, 0, -10 * side, 0, true);
        /* arms: the arm on the sway side goes up, the other swings down and forward */
        double up = side > 0 ? 1 : 0, dn = side < 0 ? 1 : 0;
        bool phase = (b / 8) % 2 == 1; /* second phrase: both arms wave overhead */
        double la = phase ? 100 * amp : (70 * up - 10 * dn) * amp;
        double ra = phase ? 100 * amp : (70 * dn - 10 * up) * amp;
        /* left arm rests pointing to +X and 40 deg down; raising it turns about -Z? in MMD's LH
         * space a positive Z rotation lifts the left arm */
        bone_key(mb, "左腕", (uint32_t)f, 0, 0, 0, 0, phase ? 0 : -20 * dn * amp, la, true);
        bone_key(mb, "右腕", (uint32_t)f, 0, 0, 0, 0, phase ? 0 : 20 * up * amp, -ra, true);
        bone_key(mb, "左ひじ", (uint32_t)f, 0, 0, 0, 0, -(phase ? 30 + 30 * (b % 2) : 60 * up) * amp, 0, true);
        bone_key(mb, "右ひじ", (uint32_t)f, 0, 0, 0, 0, (phase ? 30 + 30 * ((b + 1) % 2) : 60 * dn) * amp, 0, true);
        bone_key(mb, "左手首", (uint32_t)f, 0, 0, 0, 0, 0, 20 * side, true);
        bone_key(mb, "右手首", (uint32_t)f, 0, 0, 0, 0, 0, 20 * side, true);
        /* feet (IK): step out to the sway side, lift the other foot on odd beats */
        double lift = (b % 2 == 1) * amp;
        bone_key(mb, "左足ＩＫ", (uint32_t)f, side > 0 ? 0.6 * amp : 0.0, side < 0 ? 1.2 * lift : 0, side < 0 ? -0.6 * lift : 0,
                 0, 0, 0, true);
        bone_key(mb, "右足ＩＫ", (uint32_t)f, side < 0 ? -0.6 * amp : 0.0, side > 0 ? 1.2 * lift : 0, side > 0 ? -0.6 * lift : 0,
                 0, 0, 0, true);
        /* mouth: sing on the beats of the middle part */
        morph_key(mb, "あ", (uint32_t)f, amp * (b % 2 ? 0.2 : 0.8));
        if (f + 7 <= DANCE_FRAMES)
            morph_key(mb, "あ", (uint32_t)f + 7, amp * 0.1);
    }
    /* blinks every ~3 s */
    for (int f = 40; f + 6 <= DANCE_FRAMES; f += 95) {
        morph_key(mb, "まばたき", (uint32_t)f, 0);
        morph_key(mb, "まばたき", (uint32_t)f + 3, 1);
        morph_key(mb, "まばたき", (uint32_t)f + 6, 0);
    }
    /* blush rises in the last phrase */
    morph_key(mb, "照れ", 0, 0);
    morph_key(mb, "照れ", 200, 0);
    morph_key(mb, "照れ", 240, 1);
    morph_key(mb, "照れ", DANCE_FRAMES, 1);
    return save_motion(dir, "dance.vmd", mb);
}

static int make_camera(const char *dir)
{
    mmd_motion *mb = mmd_motion_new("カメラ・照明");
    if (!mb)
        return -1;
    /* shot 1: slow push-in and orbit from the front-left */
    camera_key(mb, 0, 0, 11, 0, 4, -25, -48, 30, true);
    camera_key(mb, 90, 0, 11, 0, 2, 15, -36, 30, true);
    camera_key(mb, 149, 0, 12, 0, 0, 25, -32, 30, true);
    /* cut at 150: low angle close-up from the right (a 1-frame gap holds the previous key) */
    camera_key(mb, 150, 0, 13, 0, -12, 60, -22, 35, false);
    camera_key(mb, 220, 0, 12, 0, -6, 35, -28, 32, true);
    /* shot 3: pull back to a wide front shot */
    camera_key(mb, DANCE_FRAMES, 0, 10, 0, 6, 0, -55, 28, true);
    const float color[3] = {0.62f, 0.62f, 0.62f}, direction[3] = {-0.4f, -0.9f, 0.5f};
    if (!mmd_motion_add_light_key(mb, 0, color, direction)) {
        mmd_motion_free(mb);
        return -1;
    }
    return save_motion(dir, "camera.vmd", mb);
}

/* ---- the character ---------------------------------------------------------- */

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return p;
    uint32_t c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) {
        fprintf(stderr, "mkdemo: out of memory\n");
        exit(1);
    }
    *cap = c;
    return q;
}

typedef struct vtx {
    float pos[3], nrm[3], uv[2];
    int32_t b0, b1;
    float w0; /* weight of b0 (BDEF2; b1 < 0: BDEF1) */
} vtx;

typedef struct mesh {
    vtx *v;
    uint32_t nv, capv;
    uint32_t *idx;
    uint32_t ni, capi;
} mesh;

static uint32_t add_v(mesh *m, vtx v)
{
    m->v = grow(m->v, &m->capv, m->nv + 1, sizeof *m->v);
    m->v[m->nv] = v;
    return m->nv++;
}

static void add_tri(mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    m->idx = grow(m->idx, &m->capi, m->ni + 3, sizeof *m->idx);
    /* MMD winding: clockwise seen from the front in its LH space */
    m->idx[m->ni++] = a;
    m->idx[m->ni++] = b;
    m->idx[m->ni++] = c;
}

static void v3_sub(const float a[3], const float b[3], float o[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}
static void v3_norm(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}
static void v3_cross(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Capsule from a to b (radii ra at a, rb at b), skinned to `bone`; the first
 * `blend` of its length blends from prev (50/50 at a) and the last from next. */
static void capsule(mesh *m, const float a[3], const float b[3], float ra, float rb, int32_t bone,
                    int32_t prev, int32_t next, float sx, float sz)
{
    const int sectors = 16, rings = 10, cap_rings = 4;
    float axis[3], u[3], w[3], up[3] = {0, 0, 1};
    v3_sub(b, a, axis);
    float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    v3_norm(axis);
    if (fabsf(axis[2]) > 0.9f) {
        up[0] = 1;
        up[2] = 0;
    }
    v3_cross(axis, up, u);
    v3_norm(u);
    v3_cross(u, axis, w);
    v3_norm(w);
    uint32_t base = m->nv;
    int total_rings = rings + 2 * cap_rings + 1;
    for (int r = 0; r < total_rings; r++) {
        /* position along the axis: caps are quarter circles */
        double along, rad_scale, nax;
        float rr;
        if (r < cap_rings) {
            double th = (PI / 2) * (1.0 - (double)r / cap_rings);
            along = -sin(th);
            rad_scale = cos(th);
            nax = -sin(th);
            rr = ra;
        } else if (r > cap_rings + rings) {
            double th = (PI / 2) * (double)(r - cap_rings - rings) / cap_rings;
            along = len + sin(th) * rb;
            rad_scale = cos(th);
            nax = sin(th);
            rr = rb;
            along = len + sin(th) * rb;
        } else {
            double t = (double)(r - cap_rings) / rings;
            along = t * len;
            rad_scale = 1;
            nax = (ra - rb) / len;
            rr = (float)(ra + (rb - ra) * t);
        }
        if (r < cap_rings)
            along *= ra;
        double t = len > 0 ? fmin(1, fmax(0, along / len)) : 0;
        int32_t b0 = bone, b1 = -1;
        float w0 = 1;
        if (prev >= 0 && t < 0.25) {
            b1 = prev;
            w0 = (float)(0.5 + 2.0 * t);
        } else if (next >= 0 && t > 0.75) {
            b1 = next;
            w0 = (float)(1.0 - 2.0 * (t - 0.75));
        }
        for (int s = 0; s <= sectors; s++) {
            double ph = 2 * PI * s / sectors;
            double c = cos(ph) * sx, sn = sin(ph) * sz;
            vtx v;
            memset(&v, 0, sizeof v);
            for (int k = 0; k < 3; k++) {
                v.pos[k] = (float)(a[k] + axis[k] * along + (u[k] * c + w[k] * sn) * rr * rad_scale);
                v.nrm[k] = (float)((u[k] * cos(ph) / sx + w[k] * sin(ph) / sz) * rad_scale + axis[k] * nax);
            }
            v3_norm(v.nrm);
            v.uv[0] = (float)s / sectors;
            v.uv[1] = (float)r / (total_rings - 1);
            v.b0 = b0;
            v.b1 = b1;
            v.w0 = w0;
            add_v(m, v);
        }
    }
    for (int r = 0; r + 1 < total_rings; r++)
        for (int s = 0; s < sectors; s++) {
            uint32_t i0 = base + (uint32_t)(r * (sectors + 1) + s), i1 = i0 + 1;
            uint32_t j0 = i0 + (uint32_t)(sectors + 1), j1 = j0 + 1;
            add_tri(m, i0, j0, i1);
            add_tri(m, i1, j0, j1);
        }
}

/* Ellipsoid centred at c with radii r, skinned to one bone. uv: u = around
 * (front, -Z, at u = 0.75), v = top to bottom. */
static void ellipsoid(mesh *m, const float c[3], float rx, float ry, float rz, int32_t bone)
{
    const int sectors = 24, rings = 16;
    uint32_t base = m->nv;
    for (int r = 0; r <= rings; r++) {
        double th = PI * r / rings;
        for (int s = 0; s <= sectors; s++) {
            double ph = 2 * PI * s / sectors;
            vtx v;
            memset(&v, 0, sizeof v);
            double nx = sin(th) * cos(ph), ny = cos(th), nz = sin(th) * sin(ph);
            v.pos[0] = c[0] + (float)(nx * rx);
            v.pos[1] = c[1] + (float)(ny * ry);
            v.pos[2] = c[2] + (float)(nz * rz);
            v.nrm[0] = (float)(nx / rx);
            v.nrm[1] = (float)(ny / ry);
            v.nrm[2] = (float)(nz / rz);
            v3_norm(v.nrm);
            v.uv[0] = (float)s / sectors;
            v.uv[1] = (float)r / rings;
            v.b0 = bone;
            v.b1 = -1;
            v.w0 = 1;
            add_v(m, v);
        }
    }
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < sectors; s++) {
            uint32_t i0 = base + (uint32_t)(r * (sectors + 1) + s), i1 = i0 + 1;
            uint32_t j0 = i0 + (uint32_t)(sectors + 1), j1 = j0 + 1;
            add_tri(m, i0, i1, j0);
            add_tri(m, i1, j1, j0);
        }
}

enum {
    B_ROOT, B_CENTER, B_UPPER, B_UPPER2, B_NECK, B_HEAD, B_EYES,
    B_L_SHOULDER, B_L_ARM, B_L_ELBOW, B_L_WRIST,
    B_R_SHOULDER, B_R_ARM, B_R_ELBOW, B_R_WRIST,
    B_LOWER, B_L_LEG, B_L_KNEE, B_L_ANKLE, B_L_TOE, B_R_LEG, B_R_KNEE, B_R_ANKLE, B_R_TOE,
    B_L_LEG_IK, B_L_TOE_IK, B_R_LEG_IK, B_R_TOE_IK,
    B_COUNT
};

typedef struct bone_def {
    const char *name, *name_en;
    int parent;
    float pos[3];
    int tail; /* bone index or -1 (then tail offset 0,-1,0 style offsets are skipped) */
} bone_def;

/* Rest pose: an A-pose ~19 units tall, facing -Z. */
#define SH_Y 14.6f
static const bone_def k_bones[B_COUNT] = {
    [B_ROOT] = {"全ての親", "mother", -1, {0, 0, 0}, B_CENTER},
    [B_CENTER] = {"センター", "center", B_ROOT, {0, 8.4f, 0}, -1},
    [B_UPPER] = {"上半身", "upper body", B_CENTER, {0, 10.2f, 0}, B_UPPER2},
    [B_UPPER2] = {"上半身2", "upper body2", B_UPPER, {0, 12.0f, 0}, B_NECK},
    [B_NECK] = {"首", "neck", B_UPPER2, {0, 15.4f, 0}, B_HEAD},
    [B_HEAD] = {"頭", "head", B_NECK, {0, 16.4f, 0}, -1},
    [B_EYES] = {"両目", "eyes", B_HEAD, {0, 17.4f, -1.2f}, -1},
    [B_L_SHOULDER] = {"左肩", "shoulder_L", B_UPPER2, {0.4f, SH_Y, 0}, B_L_ARM},
    [B_L_ARM] = {"左腕", "arm_L", B_L_SHOULDER, {1.6f, SH_Y, 0}, B_L_ELBOW},
    [B_L_ELBOW] = {"左ひじ", "elbow_L", B_L_ARM, {3.5f, 12.8f, 0}, B_L_WRIST},
    [B_L_WRIST] = {"左手首", "wrist_L", B_L_ELBOW, {5.2f, 11.1f, -0.2f}, -1},
    [B_R_SHOULDER] = {"右肩", "shoulder_R", B_UPPER2, {-0.4f, SH_Y, 0}, B_R_ARM},
    [B_R_ARM] = {"右腕", "arm_R", B_R_SHOULDER, {-1.6f, SH_Y, 0}, B_R_ELBOW},
    [B_R_ELBOW] = {"右ひじ", "elbow_R", B_R_ARM, {-3.5f, 12.8f, 0}, B_R_WRIST},
    [B_R_WRIST] = {"右手首", "wrist_R", B_R_ELBOW, {-5.2f, 11.1f, -0.2f}, -1},
    [B_LOWER] = {"下半身", "lower body", B_CENTER, {0, 10.2f, 0}, -1},
    [B_L_LEG] = {"左足", "leg_L", B_LOWER, {0.9f, 9.2f, 0}, B_L_KNEE},
    [B_L_KNEE] = {"左ひざ", "knee_L", B_L_LEG, {0.9f, 5.1f, -0.1f}, B_L_ANKLE},
    [B_L_ANKLE] = {"左足首", "ankle_L", B_L_KNEE, {0.9f, 1.0f, 0.2f}, B_L_TOE},
    [B_L_TOE] = {"左つま先", "toe_L", B_L_ANKLE, {0.9f, 0.1f, -1.4f}, -1},
    [B_R_LEG] = {"右足", "leg_R", B_LOWER, {-0.9f, 9.2f, 0}, B_R_KNEE},
    [B_R_KNEE] = {"右ひざ", "knee_R", B_R_LEG, {-0.9f, 5.1f, -0.1f}, B_R_ANKLE},
    [B_R_ANKLE] = {"右足首", "ankle_R", B_R_KNEE, {-0.9f, 1.0f, 0.2f}, B_R_TOE},
    [B_R_TOE] = {"右つま先", "toe_R", B_R_ANKLE, {-0.9f, 0.1f, -1.4f}, -1},
    [B_L_LEG_IK] = {"左足ＩＫ", "leg IK_L", B_ROOT, {0.9f, 1.0f, 0.2f}, -1},
    [B_L_TOE_IK] = {"左つま先ＩＫ", "toe IK_L", B_L_LEG_IK, {0.9f, 0.1f, -1.4f}, -1},
    [B_R_LEG_IK] = {"右足ＩＫ", "leg IK_R", B_ROOT, {-0.9f, 1.0f, 0.2f}, -1},
    [B_R_TOE_IK] = {"右つま先ＩＫ", "toe IK_R", B_R_LEG_IK, {-0.9f, 0.1f, -1.4f}, -1},
};

enum { M_SKIN, M_FACE, M_EYE, M_MOUTH, M_HAIR, M_CLOTH, M_DARK, M_SKIRT, M_COUNT };

/* ---- physics bones, bodies and joints --------------------------------------- *
 *
 * As MMD models do it: a twin tail is a chain of bones under 頭 - a root bone
 * whose body (mode 0) follows the head, then HAIR_LINKS bones whose capsules
 * are simulated (mode 1) and linked by 6DOF spring joints with small angular
 * limits. The skirt is SKIRT_CHAINS chains of 2 bones under 下半身 (box bodies,
 * mode 2 at the waist, mode 1 at the hem) jointed to a mode-0 body on 下半身.
 * Mode-0 bodies on the head, chest, hips and thighs keep hair and skirt out of
 * the body. Collision groups (0-based) and masks (bit i set = collides with
 * group i, DESIGN.md F): body 0 (collides with all but itself), hair 1 and
 * skirt 2 (collide with the body only, so neighbouring links and the hair /
 * skirt pair never fight). */
enum { HAIR_LINKS = 5, HAIR_BONES = HAIR_LINKS + 1, SKIRT_CHAINS = 8 };
enum {
    B_HAIR_L = B_COUNT,                 /* 左髪, 左髪1..5 */
    B_HAIR_R = B_HAIR_L + HAIR_BONES,   /* 右髪, 右髪1..5 */
    B_SKIRT = B_HAIR_R + HAIR_BONES,    /* chain c: B_SKIRT + 2c (waist), + 2c + 1 (hem) */
    B_ALL = B_SKIRT + 2 * SKIRT_CHAINS
};
enum { G_BODY = 0, G_HAIR = 1, G_SKIRT = 2 };
#define MASK_BODY ((uint16_t)(0xffffu & ~(1u << G_BODY)))
#define MASK_CLOTH ((uint16_t)(1u << G_BODY))

/* twin tail of side s (+1 left, -1 right): straight from its tie to its tip */
static void hair_point(int s, int k, float out[3])
{
    const float a[3] = {1.9f * (float)s, 18.6f, 0.4f}, b[3] = {3.0f * (float)s, 8.0f, 1.4f};
    for (int c = 0; c < 3; c++)
        out[c] = a[c] + (b[c] - a[c]) * (float)k / HAIR_BONES;
}
static float hair_radius(float t) /* t = 0 at the tie, 1 at the tip */
{
    return 0.55f + (0.25f - 0.55f) * t;
}

/* skirt: a flared cone, v = 0 at the waist, 1 at the hem; chain c at angle
 * phi = c * 2pi / SKIRT_CHAINS from the front (-Z) towards the left (+X) */
#define SKIRT_Y0 10.5f
#define SKIRT_Y1 6.8f
#define SKIRT_R0 1.4f
#define SKIRT_R1 2.6f
static const float k_skirt_v[3] = {0.1f, 0.55f, 1.0f}; /* waist bone, hem bone, tip */
static void skirt_point(double phi, float v, float out[3])
{
    float r = SKIRT_R0 + (SKIRT_R1 - SKIRT_R0) * v;
    out[0] = (float)(sin(phi) * r);
    out[1] = SKIRT_Y0 + (SKIRT_Y1 - SKIRT_Y0) * v;
    out[2] = (float)(-cos(phi) * r);
}

typedef struct xbone {
    char name[40], name_en[40];
    int parent;
    float pos[3];
    int tail;         /* bone index, or -1: tail_offset */
    float tail_off[3];
} xbone;

static void xbone_set(xbone *x, const char *name, const char *en, int parent, const float pos[3], int tail)
{
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->name_en, sizeof x->name_en, "%s", en);
    x->parent = parent;
    memcpy(x->pos, pos, sizeof x->pos);
    x->tail = tail;
    memset(x->tail_off, 0, sizeof x->tail_off);
}

static const char *const k_skirt_dir[SKIRT_CHAINS] = {"前", "左前", "左", "左後", "後", "右後", "右", "右前"};
static const char *const k_skirt_dir_en[SKIRT_CHAINS] = {"F", "FL", "L", "BL", "B", "BR", "R", "FR"};

/* The bones added for physics (indices B_COUNT .. B_ALL-1). */
static void physics_bones(xbone *x)
{
    for (int side = 0; side < 2; side++) {
        int s = side ? -1 : 1, base = side ? B_HAIR_R : B_HAIR_L;
        const char *jp = side ? "右" : "左", *en = side ? "R" : "L";
        for (int k = 0; k < HAIR_BONES; k++) {
            char name[40], nen[40];
            float pos[3];
            hair_point(s, k, pos);
            if (k == 0) {
                snprintf(name, sizeof name, "%s髪", jp);
                snprintf(nen, sizeof nen, "hair_%s", en);
            } else {
                snprintf(name, sizeof name, "%s髪%d", jp, k);
                snprintf(nen, sizeof nen, "hair%d_%s", k, en);
            }
            xbone *b = &x[base + k - B_COUNT];
            xbone_set(b, name, nen, k == 0 ? B_HEAD : base + k - 1, pos, k + 1 < HAIR_BONES ? base + k + 1 : -1);
            if (k + 1 == HAIR_BONES) {
                float tip[3];
                hair_point(s, HAIR_BONES, tip);
                v3_sub(tip, pos, b->tail_off);
            }
        }
    }
    for (int c = 0; c < SKIRT_CHAINS; c++) {
        double phi = 2 * PI * c / SKIRT_CHAINS;
        for (int j = 0; j < 2; j++) {
            char name[40], nen[40];
            float pos[3];
            skirt_point(phi, k_skirt_v[j], pos);
            snprintf(name, sizeof name, "スカート%s%d", k_skirt_dir[c], j + 1);
            snprintf(nen, sizeof nen, "skirt_%s%d", k_skirt_dir_en[c], j + 1);
            int bi = B_SKIRT + 2 * c + j;
            xbone *b = &x[bi - B_COUNT];
            xbone_set(b, name, nen, j == 0 ? B_LOWER : bi - 1, pos, j == 0 ? bi + 1 : -1);
            if (j == 1) {
                float tip[3];
                skirt_point(phi, k_skirt_v[2], tip);
                v3_sub(tip, pos, b->tail_off);
            }
        }
    }
}

/* YXZ Euler angles (what PMX stores) of the rotation whose columns are the
 * body's local axes X, Y, Z in model space: R = Ry*Rx*Rz. */
static void euler_from_axes(const float ax[3], const float ay[3], const float az[3], float out[3])
{
    /* R[row][col]: column 0 = ax, 1 = ay, 2 = az */
    float r12 = az[1], r02 = az[0], r22 = az[2], r10 = ax[1], r11 = ay[1];
    out[0] = asinf(fmaxf(-1, fminf(1, -r12)));
    out[1] = atan2f(r02, r22);
    out[2] = atan2f(r10, r11);
}

/* local Y along d (any X, Z perpendicular) */
static void euler_along(const float d[3], float out[3])
{
    float y[3] = {d[0], d[1], d[2]}, x[3], z[3], ref[3] = {0, 0, 1};
    v3_norm(y);
    if (fabsf(y[2]) > 0.9f) {
        ref[0] = 1;
        ref[2] = 0;
    }
    v3_cross(y, ref, x);
    v3_norm(x);
    v3_cross(x, y, z);
    euler_from_axes(x, y, z, out);
}

typedef struct physics_set {
    mmd_rigid_body body[64];
    mmd_joint joint[64];
    uint32_t nb, nj;
} physics_set;

static int add_body(mmd_model *m, physics_set *ps, const char *name, const char *en, int bone, uint8_t group,
                    uint16_t mask, uint8_t shape, float sx, float sy, float sz, const float pos[3],
                    const float rot[3], float mass, uint8_t mode)
{
    mmd_rigid_body *b = &ps->body[ps->nb];
    memset(b, 0, sizeof *b);
    b->name = mmd_model_str(m, name);
    b->name_en = mmd_model_str(m, en);
    b->bone = bone;
    b->group = group;
    b->no_collide_mask = mask;
    b->shape = shape;
    b->size[0] = sx;
    b->size[1] = sy;
    b->size[2] = sz;
    memcpy(b->position, pos, sizeof b->position);
    if (rot)
        memcpy(b->rotation, rot, sizeof b->rotation);
    b->mass = mode == MMD_BODY_FOLLOW_BONE ? 0 : mass;
    b->mode = mode;
    b->linear_damping = 0.5f;
    b->angular_damping = 0.5f;
    b->restitution = 0;
    b->friction = 0.5f;
    return (int)ps->nb++;
}

/* 6DOF spring joint at pos (world axes), linear locked, angular +-ax/ay/az. */
static void add_joint(mmd_model *m, physics_set *ps, const char *name, int a, int b, const float pos[3], float ax,
                      float ay, float az, float spring)
{
    mmd_joint *j = &ps->joint[ps->nj++];
    memset(j, 0, sizeof *j);
    j->name = mmd_model_str(m, name);
    j->name_en = mmd_model_str(m, name);
    j->type = MMD_JOINT_SPRING_6DOF;
    j->body_a = a;
    j->body_b = b;
    memcpy(j->position, pos, sizeof j->position);
    j->angular_lower[0] = -ax;
    j->angular_upper[0] = ax;
    j->angular_lower[1] = -ay;
    j->angular_upper[1] = ay;
    j->angular_lower[2] = -az;
    j->angular_upper[2] = az;
    for (int k = 0; k < 3; k++)
        j->spring_angular[k] = spring;
}

static void physics_bodies(mmd_model *m, physics_set *ps, const xbone *xb)
{
    char name[48], en[48];
    /* collision bodies (mode 0, group 0) */
    const float head_c[3] = {0, 17.6f, 0}, chest_c[3] = {0, 12.6f, 0}, hip_c[3] = {0, 9.5f, 0};
    add_body(m, ps, "頭", "head", B_HEAD, G_BODY, MASK_BODY, MMD_SHAPE_SPHERE, 1.6f, 0, 0, head_c, NULL, 0, 0);
    add_body(m, ps, "上半身", "upper body", B_UPPER2, G_BODY, MASK_BODY, MMD_SHAPE_CAPSULE, 1.2f, 2.6f, 0, chest_c,
             NULL, 0, 0);
    add_body(m, ps, "下半身", "lower body", B_LOWER, G_BODY, MASK_BODY, MMD_SHAPE_CAPSULE, 1.1f, 1.0f, 0, hip_c, NULL,
             0, 0);
    for (int side = 0; side < 2; side++) {
        const float thigh[3] = {side ? -0.9f : 0.9f, 7.4f, 0};
        add_body(m, ps, side ? "右足" : "左足", side ? "leg_R" : "leg_L", side ? B_R_LEG : B_L_LEG, G_BODY, MASK_BODY,
                 MMD_SHAPE_CAPSULE, 0.65f, 3.2f, 0, thigh, NULL, 0, 0);
    }
    /* twin tails */
    for (int side = 0; side < 2; side++) {
        int s = side ? -1 : 1, base = side ? B_HAIR_R : B_HAIR_L, prev = -1;
        for (int k = 0; k < HAIR_BONES; k++) {
            float a[3], b[3], c[3], d[3], rot[3];
            hair_point(s, k, a);
            hair_point(s, k + 1, b);
            v3_sub(b, a, d);
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            for (int i = 0; i < 3; i++)
                c[i] = (a[i] + b[i]) / 2;
            euler_along(d, rot);
            float r = hair_radius(((float)k + 0.5f) / HAIR_BONES) * 0.9f;
            const xbone *x = &xb[base + k - B_COUNT];
            int body = add_body(m, ps, x->name, x->name_en, base + k, G_HAIR, MASK_CLOTH, MMD_SHAPE_CAPSULE, r,
                                fmaxf(len - r, 0.2f), 0, c, rot, 1.0f - 0.1f * (float)k,
                                k == 0 ? MMD_BODY_FOLLOW_BONE : MMD_BODY_PHYSICS);
            ps->body[body].linear_damping = 0.5f;
            ps->body[body].angular_damping = 0.95f;
            if (prev >= 0) {
                float lim = k == 1 ? 0.25f : 0.1f;
                add_joint(m, ps, x->name, prev, body, a, lim, 0.05f, lim, 100.0f);
            }
            prev = body;
        }
    }
    /* skirt */
    const float root_c[3] = {0, 10.3f, 0};
    int root = add_body(m, ps, "スカート親", "skirt root", B_LOWER, G_SKIRT, MASK_CLOTH, MMD_SHAPE_SPHERE, 0.3f, 0, 0,
                        root_c, NULL, 0, 0);
    for (int c = 0; c < SKIRT_CHAINS; c++) {
        double phi = 2 * PI * c / SKIRT_CHAINS;
        int prev = root;
        for (int j = 0; j < 2; j++) {
            float a[3], b[3], ctr[3], up[3], rad[3], tan[3], rot[3];
            skirt_point(phi, k_skirt_v[j], a);
            skirt_point(phi, k_skirt_v[j + 1], b);
            v3_sub(a, b, up); /* local Y: up along the panel */
            float len = sqrtf(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
            v3_norm(up);
            tan[0] = (float)cos(phi); /* local X: around the skirt */
            tan[1] = 0;
            tan[2] = (float)sin(phi);
            v3_cross(tan, up, rad); /* local Z: outwards */
            euler_from_axes(tan, up, rad, rot);
            for (int i = 0; i < 3; i++)
                ctr[i] = (a[i] + b[i]) / 2;
            float rmid = SKIRT_R0 + (SKIRT_R1 - SKIRT_R0) * (k_skirt_v[j] + k_skirt_v[j + 1]) / 2;
            int bi = B_SKIRT + 2 * c + j;
            const xbone *x = &xb[bi - B_COUNT];
            int body = add_body(m, ps, x->name, x->name_en, bi, G_SKIRT, MASK_CLOTH, MMD_SHAPE_BOX, 0.3f * rmid,
                                len / 2, 0.1f, ctr, rot, j == 0 ? 0.3f : 0.2f,
                                j == 0 ? MMD_BODY_PHYSICS_BONE_POS : MMD_BODY_PHYSICS);
            ps->body[body].linear_damping = 0.6f;
            ps->body[body].angular_damping = 0.8f;
            snprintf(name, sizeof name, "%s", x->name);
            (void)en;
            add_joint(m, ps, name, prev, body, a, j == 0 ? 0.35f : 0.3f, 0.05f, j == 0 ? 0.35f : 0.3f, 300.0f);
            prev = body;
        }
    }
}

/* Re-skin a twin tail's vertices (vertex range first..end of mesh p) along
 * its chain: BDEF2 between the two bones whose segment centres bracket it. */
static void skin_hair(mesh *p, uint32_t first, int s, int base)
{
    float a[3], b[3], d[3];
    hair_point(s, 0, a);
    hair_point(s, HAIR_BONES, b);
    v3_sub(b, a, d);
    float len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (uint32_t i = first; i < p->nv; i++) {
        vtx *v = &p->v[i];
        float q[3];
        v3_sub(v->pos, a, q);
        float t = (q[0] * d[0] + q[1] * d[1] + q[2] * d[2]) / len2;
        float x = fmaxf(0, fminf(1, t)) * HAIR_BONES - 0.5f;
        if (x <= 0) {
            v->b0 = base;
            v->b1 = -1;
            v->w0 = 1;
        } else if (x >= HAIR_BONES - 1) {
            v->b0 = base + HAIR_BONES - 1;
            v->b1 = -1;
            v->w0 = 1;
        } else {
            int k = (int)x;
            v->b0 = base + k;
            v->b1 = base + k + 1;
            v->w0 = 1 - (x - (float)k);
        }
    }
}

/* The skirt cone, double-sided, with a soft pleat ripple. Up to 4 bones per
 * vertex (BDEF4): the two chains around it times the two levels. */
typedef struct vtx4 {
    int32_t b[4];
    float w[4];
} vtx4;

static void skirt_mesh(mesh *p, vtx4 **w4, uint32_t *first)
{
    const int sectors = 64, rings = 14;
    const float pleat = 0.05f;
    uint32_t base = p->nv;
    *first = base;
    *w4 = calloc((size_t)(sectors + 1) * (rings + 1), sizeof **w4);
    if (!*w4) {
        fprintf(stderr, "mkdemo: out of memory\n");
        exit(1);
    }
    for (int r = 0; r <= rings; r++) {
        float v = (float)r / rings;
        for (int s = 0; s <= sectors; s++) {
            double phi = 2 * PI * s / sectors;
            vtx x;
            memset(&x, 0, sizeof x);
            float rr = 1 + pleat * v * (float)cos(phi * 24);
            skirt_point(phi, v, x.pos);
            x.pos[0] *= rr;
            x.pos[2] *= rr;
            float slope = (SKIRT_R1 - SKIRT_R0) / (SKIRT_Y0 - SKIRT_Y1);
            x.nrm[0] = (float)sin(phi);
            x.nrm[1] = slope;
            x.nrm[2] = (float)-cos(phi);
            v3_norm(x.nrm);
            x.uv[0] = (float)s / sectors;
            x.uv[1] = v;
            x.b0 = B_LOWER;
            x.b1 = -1;
            x.w0 = 1;
            add_v(p, x);
            vtx4 *q = &(*w4)[(size_t)r * (sectors + 1) + (size_t)s];
            for (int k = 0; k < 4; k++) {
                q->b[k] = -1;
                q->w[k] = 0;
            }
            if (v <= k_skirt_v[0]) {
                q->b[0] = B_LOWER;
                q->w[0] = 1;
                continue;
            }
            double ca = phi / (2 * PI) * SKIRT_CHAINS;
            int c0 = (int)floor(ca) % SKIRT_CHAINS, c1 = (c0 + 1) % SKIRT_CHAINS;
            float fa = (float)(ca - floor(ca));
            /* levels: waist bone up to the hem bone's head, then blend over +-0.15 */
            float fv = (v - (k_skirt_v[1] - 0.15f)) / 0.3f;
            fv = fmaxf(0, fminf(1, fv));
            q->b[0] = B_SKIRT + 2 * c0;
            q->b[1] = B_SKIRT + 2 * c1;
            q->b[2] = B_SKIRT + 2 * c0 + 1;
            q->b[3] = B_SKIRT + 2 * c1 + 1;
            q->w[0] = (1 - fa) * (1 - fv);
            q->w[1] = fa * (1 - fv);
            q->w[2] = (1 - fa) * fv;
            q->w[3] = fa * fv;
        }
    }
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < sectors; s++) {
            uint32_t i0 = base + (uint32_t)(r * (sectors + 1) + s), i1 = i0 + 1;
            uint32_t j0 = i0 + (uint32_t)(sectors + 1), j1 = j0 + 1;
            add_tri(p, i0, i1, j0);
            add_tri(p, i1, j1, j0);
        }
}

static int make_character(const char *dir)
{
    mesh parts[M_COUNT];
    memset(parts, 0, sizeof parts);
    const bone_def *B = k_bones;
#define P(i) B[i].pos
    /* head and face */
    float head_c[3] = {0, 17.6f, 0};
    ellipsoid(&parts[M_FACE], head_c, 1.75f, 1.95f, 1.7f, B_HEAD);
    uint32_t eye_first = parts[M_EYE].nv;
    for (int s = -1; s <= 1; s += 2) {
        float ec[3] = {0.6f * s, 17.55f, -1.56f};
        ellipsoid(&parts[M_EYE], ec, 0.28f, 0.42f, 0.14f, B_HEAD);
    }
    float mc[3] = {0, 16.6f, -1.52f};
    ellipsoid(&parts[M_MOUTH], mc, 0.32f, 0.08f, 0.1f, B_HEAD);
    /* hair: a cap over the head, bangs and twin tails */
    float hc[3] = {0, 18.3f, 0.3f};
    ellipsoid(&parts[M_HAIR], hc, 1.85f, 1.75f, 1.8f, B_HEAD);
    for (int s = -1; s <= 1; s += 2) {
        float a[3], b[3];
        hair_point(s, 0, a);
        hair_point(s, HAIR_BONES, b);
        uint32_t tail_first = parts[M_HAIR].nv;
        capsule(&parts[M_HAIR], a, b, hair_radius(0), hair_radius(1), B_HEAD, -1, -1, 1.0f, 1.0f);
        skin_hair(&parts[M_HAIR], tail_first, s, s > 0 ? B_HAIR_L : B_HAIR_R);
        float ta[3] = {1.5f * s, 19.2f, 0.2f}, tb[3] = {2.0f * s, 19.0f, 0.3f};
        capsule(&parts[M_DARK], ta, tb, 0.35f, 0.35f, B_HEAD, -1, -1, 1.0f, 1.0f); /* hair ties */
    }
    /* neck and torso */
    float neck_a[3] = {0, 14.8f, 0.05f}, neck_b[3] = {0, 16.4f, 0.05f};
    capsule(&parts[M_SKIN], neck_a, neck_b, 0.42f, 0.42f, B_NECK, B_UPPER2, B_HEAD, 1.0f, 1.0f);
    float ch_a[3] = {0, 10.4f, 0}, ch_b[3] = {0, 14.6f, 0};
    capsule(&parts[M_CLOTH], ch_a, ch_b, 1.15f, 1.35f, B_UPPER2, B_UPPER, B_NECK, 1.15f, 0.75f);
    /* lower body: hips (dark shorts under the skirt) and the skirt cone */
    float hp_a[3] = {0, 10.6f, 0}, hp_b[3] = {0, 8.6f, 0};
    capsule(&parts[M_DARK], hp_a, hp_b, 1.2f, 1.3f, B_LOWER, B_UPPER, -1, 1.1f, 0.95f);
    vtx4 *skirt_w = NULL;
    uint32_t skirt_first = 0;
    skirt_mesh(&parts[M_SKIRT], &skirt_w, &skirt_first);
    /* arms */
    for (int side = 0; side < 2; side++) {
        int sh = side ? B_R_SHOULDER : B_L_SHOULDER, arm = sh + 1, elb = sh + 2, wr = sh + 3;
        capsule(&parts[M_CLOTH], P(sh), P(arm), 0.5f, 0.48f, sh, B_UPPER2, arm, 1, 1);
        capsule(&parts[M_DARK], P(arm), P(elb), 0.46f, 0.4f, arm, sh, elb, 1, 1);
        capsule(&parts[M_SKIN], P(elb), P(wr), 0.38f, 0.3f, elb, arm, wr, 1, 1);
        float hand_b[3] = {P(wr)[0] + (side ? -0.7f : 0.7f), P(wr)[1] - 0.8f, P(wr)[2] - 0.1f};
        capsule(&parts[M_SKIN], P(wr), hand_b, 0.34f, 0.3f, wr, elb, -1, 0.7f, 1.2f);
    }
    /* legs */
    for (int side = 0; side < 2; side++) {
        int leg = side ? B_R_LEG : B_L_LEG, knee = leg + 1, ank = leg + 2, toe = leg + 3;
        capsule(&parts[M_SKIN], P(leg), P(knee), 0.72f, 0.52f, leg, B_LOWER, knee, 1, 1);
        capsule(&parts[M_DARK], P(knee), P(ank), 0.55f, 0.42f, knee, leg, ank, 1, 1);
        capsule(&parts[M_DARK], P(ank), P(toe), 0.45f, 0.35f, ank, knee, -1, 1.1f, 0.8f);
    }
#undef P

    mmd_model *m = mmd_model_new();
    if (!m)
        return -1;
    m->name = mmd_model_str(m, "デモ子");
    m->name_en = mmd_model_str(m, "Demo character");
    m->comment = mmd_model_str(m, "mmdrender のデモ用に tools/mkdemo.c が生成したモデル (CC0)");
    m->comment_en = mmd_model_str(m, "Generated by mmdrender tools/mkdemo.c for the demo scene. CC0.");

    /* bones: the body, then the physics chains */
    static xbone xb[B_ALL - B_COUNT];
    physics_bones(xb);
    mmd_bone *bones = mmd_model_add_bones(m, B_ALL);
    for (int i = 0; i < B_COUNT; i++) {
        mmd_bone *b = &bones[i];
        b->name = mmd_model_str(m, B[i].name);
        b->name_en = mmd_model_str(m, B[i].name_en);
        memcpy(b->position, B[i].pos, sizeof b->position);
        b->parent = B[i].parent;
        b->flags = MMD_BONE_ROTATABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
        if (i == B_ROOT || i == B_CENTER || (i >= B_L_LEG_IK && i < B_COUNT))
            b->flags |= MMD_BONE_MOVABLE;
        if (B[i].tail >= 0) {
            b->flags |= MMD_BONE_TAIL_IS_BONE;
            b->tail_bone = B[i].tail;
        } else {
            b->tail_bone = -1;
            b->tail_offset[1] = i == B_CENTER ? -1.0f : 0.8f;
        }
        b->ik_target = -1;
    }
    for (int i = B_COUNT; i < B_ALL; i++) {
        const xbone *x = &xb[i - B_COUNT];
        mmd_bone *b = &bones[i];
        b->name = mmd_model_str(m, x->name);
        b->name_en = mmd_model_str(m, x->name_en);
        memcpy(b->position, x->pos, sizeof b->position);
        b->parent = x->parent;
        b->flags = MMD_BONE_ROTATABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
        if (x->tail >= 0) {
            b->flags |= MMD_BONE_TAIL_IS_BONE;
            b->tail_bone = x->tail;
        } else {
            b->tail_bone = -1;
            memcpy(b->tail_offset, x->tail_off, sizeof b->tail_offset);
        }
        b->ik_target = -1;
    }
    /* legs after the IK bones in MMD models are evaluated in layer 0 too; IK
     * bones come last in index order, which is what the evaluation needs */
    for (int side = 0; side < 2; side++) {
        int leg = side ? B_R_LEG : B_L_LEG, ik = side ? B_R_LEG_IK : B_L_LEG_IK;
        mmd_bone *b = &bones[ik];
        b->flags |= MMD_BONE_IK;
        b->ik_target = leg + 2; /* ankle */
        b->ik_loop = 40;
        b->ik_limit_angle = 2.0f; /* radians per iteration (114.6 deg, as MMD models use) */
        b->ik_link_count = 2;
        b->ik_links = mmd_model_alloc(m, 2, sizeof(mmd_ik_link));
        b->ik_links[0].bone = leg + 1; /* knee: bends only about X, backwards */
        b->ik_links[0].has_limit = true;
        b->ik_links[0].lower[0] = (float)(-180 * DEG);
        b->ik_links[0].upper[0] = (float)(-0.5 * DEG);
        b->ik_links[1].bone = leg;
        mmd_bone *t = &bones[ik + 1];
        t->flags |= MMD_BONE_IK;
        t->ik_target = leg + 3; /* toe */
        t->ik_loop = 3;
        t->ik_limit_angle = 4.0f;
        t->ik_link_count = 1;
        t->ik_links = mmd_model_alloc(m, 1, sizeof(mmd_ik_link));
        t->ik_links[0].bone = leg + 2;
    }

    /* textures */
    static const char *const tex[] = {"tex_skin.png", "tex_face.png", "tex_hair.png", "tex_cloth.png",
                                      "tex_dark.png", "toon.png", "sphere.png"};
    char **tx = mmd_model_add_textures(m, 7);
    for (int i = 0; i < 7; i++)
        tx[i] = mmd_model_str(m, tex[i]);

    /* vertices and faces, material by material */
    uint32_t nv = 0, ni = 0;
    for (int i = 0; i < M_COUNT; i++) {
        nv += parts[i].nv;
        ni += parts[i].ni;
    }
    mmd_vertex *vs = mmd_model_add_vertices(m, nv);
    uint32_t *is = mmd_model_add_indices(m, ni);
    mmd_material *mats = mmd_model_add_materials(m, M_COUNT);
    static const struct {
        const char *name, *en;
        int tex;
        float diffuse[4], ambient[3], specular[3], power;
        bool edge, sphere;
    } md[M_COUNT] = {
        [M_SKIN] = {"肌", "skin", 0, {1, 1, 1, 1}, {0.6f, 0.55f, 0.55f}, {0.1f, 0.1f, 0.1f}, 8, true, false},
        [M_FACE] = {"顔", "face", 1, {1, 1, 1, 1}, {0.6f, 0.55f, 0.55f}, {0.05f, 0.05f, 0.05f}, 5, false, false},
        [M_EYE] = {"目", "eyes", -1, {0.1f, 0.45f, 0.5f, 1}, {0.05f, 0.2f, 0.25f}, {0.9f, 0.9f, 0.9f}, 60, false, false},
        [M_MOUTH] = {"口", "mouth", -1, {0.55f, 0.15f, 0.2f, 1}, {0.3f, 0.08f, 0.1f}, {0, 0, 0}, 5, false, false},
        [M_HAIR] = {"髪", "hair", 2, {1, 1, 1, 1}, {0.5f, 0.5f, 0.5f}, {0.3f, 0.3f, 0.3f}, 20, true, true},
        [M_CLOTH] = {"服", "shirt", 3, {1, 1, 1, 1}, {0.55f, 0.55f, 0.55f}, {0.1f, 0.1f, 0.1f}, 10, true, false},
        [M_DARK] = {"黒", "dark", 4, {1, 1, 1, 1}, {0.5f, 0.5f, 0.5f}, {0.2f, 0.2f, 0.2f}, 15, true, false},
        [M_SKIRT] = {"スカート", "skirt", 4, {1, 1, 1, 1}, {0.5f, 0.5f, 0.5f}, {0.2f, 0.2f, 0.2f}, 15, true, false},
    };
    uint32_t vo = 0, io = 0;
    uint32_t mouth_first = 0, mouth_count = 0, eye_base = 0;
    for (int i = 0; i < M_COUNT; i++) {
        mesh *p = &parts[i];
        if (i == M_MOUTH) {
            mouth_first = vo;
            mouth_count = p->nv;
        }
        if (i == M_EYE)
            eye_base = vo;
        for (uint32_t k = 0; k < p->nv; k++) {
            mmd_vertex *v = &vs[vo + k];
            memcpy(v->position, p->v[k].pos, sizeof v->position);
            memcpy(v->normal, p->v[k].nrm, sizeof v->normal);
            memcpy(v->uv, p->v[k].uv, sizeof v->uv);
            v->bones[0] = p->v[k].b0;
            v->bones[1] = v->bones[2] = v->bones[3] = -1;
            v->weights[0] = 1;
            v->weights[1] = v->weights[2] = v->weights[3] = 0;
            v->weight_type = MMD_WEIGHT_BDEF1;
            if (p->v[k].b1 >= 0 && p->v[k].w0 < 0.999f) {
                v->weight_type = MMD_WEIGHT_BDEF2;
                v->bones[1] = p->v[k].b1;
                v->weights[0] = p->v[k].w0;
                v->weights[1] = 1 - p->v[k].w0;
            }
            v->edge_scale = 1;
            if (i == M_SKIRT) {
                const vtx4 *q = &skirt_w[k];
                if (q->b[1] >= 0) {
                    v->weight_type = MMD_WEIGHT_BDEF4;
                    for (int c = 0; c < 4; c++) {
                        v->bones[c] = q->b[c];
                        v->weights[c] = q->w[c];
                    }
                }
            }
        }
        for (uint32_t k = 0; k < p->ni; k++)
            is[io + k] = vo + p->idx[k];
        mmd_material *mt = &mats[i];
        mt->name = mmd_model_str(m, md[i].name);
        mt->name_en = mmd_model_str(m, md[i].en);
        memcpy(mt->diffuse, md[i].diffuse, sizeof mt->diffuse);
        memcpy(mt->ambient, md[i].ambient, sizeof mt->ambient);
        memcpy(mt->specular, md[i].specular, sizeof mt->specular);
        mt->specular_power = md[i].power;
        mt->flags = MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW |
                    (md[i].edge ? MMD_MAT_EDGE : 0) | (i == M_SKIRT ? MMD_MAT_DOUBLE_SIDED : 0);
        mt->edge_color[0] = 0.1f;
        mt->edge_color[1] = 0.15f;
        mt->edge_color[2] = 0.2f;
        mt->edge_color[3] = 1;
        mt->edge_size = 1.0f;
        mt->texture = md[i].tex;
        mt->sphere_texture = md[i].sphere ? 6 : -1;
        mt->sphere_mode = md[i].sphere ? MMD_SPHERE_ADD : MMD_SPHERE_NONE;
        mt->toon_shared = false;
        mt->toon = 5; /* toon.png */
        mt->memo = mmd_model_str(m, "");
        mt->index_count = p->ni;
        vo += p->nv;
        io += p->ni;
    }
    (void)eye_first;
    (void)skirt_first;
    free(skirt_w);

    /* rigid bodies and joints */
    static physics_set ps;
    ps.nb = ps.nj = 0;
    physics_bodies(m, &ps, xb);
    mmd_rigid_body *rbs = mmd_model_add_rigid_bodies(m, ps.nb);
    mmd_joint *js = mmd_model_add_joints(m, ps.nj);
    if (!rbs || !js) {
        mmd_model_free(m);
        return -1;
    }
    memcpy(rbs, ps.body, ps.nb * sizeof *rbs);
    memcpy(js, ps.joint, ps.nj * sizeof *js);

    /* morphs: あ (mouth open), まばたき (blink), 照れ (material: blush) */
    mmd_morph *mo = mmd_model_add_morphs(m, 3);
    mo[0].name = mmd_model_str(m, "あ");
    mo[0].name_en = mmd_model_str(m, "a");
    mo[0].panel = 3;
    mo[0].type = MMD_MORPH_VERTEX;
    mo[0].offset_count = mouth_count;
    mo[0].u.vertex = mmd_model_alloc(m, mouth_count, sizeof(mmd_morph_vertex));
    for (uint32_t k = 0; k < mouth_count; k++) {
        const mmd_vertex *v = &vs[mouth_first + k];
        mo[0].u.vertex[k].vertex = mouth_first + k;
        float dy = v->position[1] - mc[1];
        mo[0].u.vertex[k].offset[1] = dy * 3.0f - 0.12f; /* taller, and a little lower */
        mo[0].u.vertex[k].offset[0] = -(v->position[0] - mc[0]) * 0.25f;
    }
    uint32_t eye_count = parts[M_EYE].nv;
    mo[1].name = mmd_model_str(m, "まばたき");
    mo[1].name_en = mmd_model_str(m, "blink");
    mo[1].panel = 2;
    mo[1].type = MMD_MORPH_VERTEX;
    mo[1].offset_count = eye_count;
    mo[1].u.vertex = mmd_model_alloc(m, eye_count, sizeof(mmd_morph_vertex));
    for (uint32_t k = 0; k < eye_count; k++) {
        const mmd_vertex *v = &vs[eye_base + k];
        mo[1].u.vertex[k].vertex = eye_base + k;
        mo[1].u.vertex[k].offset[1] = -(v->position[1] - 17.45f) * 0.92f; /* squash to a line */
    }
    mo[2].name = mmd_model_str(m, "照れ");
    mo[2].name_en = mmd_model_str(m, "blush");
    mo[2].panel = 4;
    mo[2].type = MMD_MORPH_MATERIAL;
    mo[2].offset_count = 1;
    mo[2].u.material = mmd_model_alloc(m, 1, sizeof(mmd_morph_material));
    mmd_morph_material *mm = &mo[2].u.material[0];
    mm->material = M_FACE;
    mm->op = 1; /* add */
    mm->diffuse[0] = 0.0f;
    mm->diffuse[1] = -0.12f;
    mm->diffuse[2] = -0.1f;
    mm->texture_tint[0] = 0.08f;

    /* display frames: Root and 表情 (what MMD expects), then the body bones */
    mmd_display_frame *fr = mmd_model_add_frames(m, 3);
    fr[0].name = mmd_model_str(m, "Root");
    fr[0].name_en = mmd_model_str(m, "Root");
    fr[0].special = true;
    fr[0].element_count = 1;
    fr[0].elements = mmd_model_alloc(m, 1, sizeof(mmd_frame_element));
    fr[0].elements[0].index = B_ROOT;
    fr[1].name = mmd_model_str(m, "表情");
    fr[1].name_en = mmd_model_str(m, "Exp");
    fr[1].special = true;
    fr[1].element_count = 3;
    fr[1].elements = mmd_model_alloc(m, 3, sizeof(mmd_frame_element));
    for (int k = 0; k < 3; k++) {
        fr[1].elements[k].is_morph = 1;
        fr[1].elements[k].index = k;
    }
    fr[2].name = mmd_model_str(m, "体");
    fr[2].name_en = mmd_model_str(m, "Body");
    fr[2].element_count = B_COUNT - 1;
    fr[2].elements = mmd_model_alloc(m, B_COUNT - 1, sizeof(mmd_frame_element));
    for (int k = 1; k < B_COUNT; k++)
        fr[2].elements[k - 1].index = k;

    uint8_t *buf = NULL;
    size_t size = 0;
    mmd_error err;
    int rc = 0;
    if (mmd_pmx_write(m, &buf, &size, &err) != MMD_OK) {
        fprintf(stderr, "mkdemo: PMX write failed: %s\n", err.msg);
        rc = -1;
    } else {
        rc = write_file(dir, "character.pmx", buf, size);
        free(buf);
    }
    mmd_model_free(m);
    for (int i = 0; i < M_COUNT; i++) {
        free(parts[i].v);
        free(parts[i].idx);
    }
    return rc;
}

/* ---- stage (an accessory, DirectX .x) --------------------------------------- */

/* A tiled floor, a framed live screen (MMD's screen.bmp: the previous frame)
 * behind the dancer and two pillars; file units (MMD draws them x10). */
static int make_stage(const char *dir)
{
    enum { N = 128 };
    static uint8_t px[N * N * 4];
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            bool dark = ((x / 16) + (y / 16)) & 1, seam = x % 16 == 0 || y % 16 == 0;
            int n = (int)(mmd_hash32((uint32_t)(y * N + x)) % 9);
            if (seam)
                put(px, N, x, y, 120, 112, 104, 255);
            else
                put(px, N, x, y, (dark ? 176 : 214) - n, (dark ? 164 : 204) - n, (dark ? 150 : 188) - n, 255);
        }
    if (write_png(dir, "tex_stage.png", N, N, px))
        return -1;
    const x_box boxes[] = {
        {{0, -0.05f, 0.4f}, {3.2f, 0.05f, 3.2f}, 0},                                         /* floor */
        {{0, 1.35f, 2.72f}, {1.75f, 0.95f, 0.04f}, 1},                                        /* frame */
        {{-2.5f, 1.3f, 2.6f}, {0.14f, 1.3f, 0.14f}, 1}, {{2.5f, 1.3f, 2.6f}, {0.14f, 1.3f, 0.14f}, 1},
        {{0, 1.35f, 2.66f}, {1.6f, 0.82f, 0.02f}, 2},                                         /* screen */
    };
    mmd_xmesh *x = x_fixture_boxes(boxes, 5, 3);
    if (!x)
        return -1;
    mmd_accessory_material *m = x->mesh.materials;
    const float floor_c[4] = {0.62f, 0.6f, 0.58f, 1}, frame_c[4] = {0.16f, 0.18f, 0.24f, 1};
    memcpy(m[0].diffuse, floor_c, sizeof floor_c);
    m[0].emissive[0] = m[0].emissive[1] = m[0].emissive[2] = 0.25f;
    m[0].texture = mmd_x_str(x, "tex_stage.png");
    memcpy(m[1].diffuse, frame_c, sizeof frame_c);
    m[1].power = 40;
    m[1].specular[0] = m[1].specular[1] = m[1].specular[2] = 0.6f;
    m[1].emissive[2] = 0.08f;
    m[2].diffuse[0] = m[2].diffuse[1] = m[2].diffuse[2] = 0;
    m[2].emissive[0] = m[2].emissive[1] = m[2].emissive[2] = 1;
    m[2].texture = mmd_x_str(x, "screen.bmp");
    size_t n = 0;
    uint8_t *b = x_fixture_bytes(x, MMD_X_TEXT, 32, true, NULL, &n);
    char path[1024];
    snprintf(path, sizeof path, "%s/stage.x", dir);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(b, 1, n, f) == n ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc)
        fprintf(stderr, "mkdemo: cannot write %s\n", path);
    free(b);
    mmd_x_free(x);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: mkdemo OUTDIR   (writes the demo scene's assets)\n");
        return 1;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "mkdemo: cannot create %s: %s\n", dir, strerror(errno));
        return 5;
    }
    int rc = make_textures(dir);
    rc |= make_audio(dir, DANCE_FRAMES / 30.0 + 0.5);
    rc |= make_dance(dir);
    rc |= make_camera(dir);
    rc |= make_character(dir);
    rc |= make_stage(dir);
    return rc ? 1 : 0;
}
