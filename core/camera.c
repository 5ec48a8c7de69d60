/* core/camera.c - camera/light/self-shadow tracks and the one LH -> GL
 * conversion (DESIGN A.3, A.5, A.6). */
#include "core/camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/interp.h"

typedef struct cam_key {
    float target[3], rot[3], distance, fov;
    bool ortho;
    mmd_curve curve[6];
} cam_key;

struct mmd_camera_track {
    uint32_t *cam_frames, *light_frames, *shadow_frames;
    cam_key *cam;
    mmd_light_key *light;
    mmd_shadow_key *shadow;
    uint32_t ncam, nlight, nshadow;
    uint32_t ccur, lcur, scur;
    uint32_t last_frame;
};

typedef struct ref { uint32_t frame, seq; } ref;

static int ref_cmp(const void *pa, const void *pb)
{
    const ref *x = pa, *y = pb;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* Sort keys by frame (stable), drop earlier duplicates; writes the order to idx. */
static uint32_t sort_unique(const void *keys, size_t stride, uint32_t n, uint32_t *idx, uint32_t *frames)
{
    ref *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f;
        memcpy(&f, (const char *)keys + i * stride, sizeof f); /* frame is the first field */
        r[i] = (ref){f, i};
    }
    qsort(r, n, sizeof *r, ref_cmp);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i + 1 < n && r[i + 1].frame == r[i].frame)
            continue;
        idx[m] = r[i].seq;
        frames[m++] = r[i].frame;
    }
    free(r);
    return m;
}

void mmd_camera_track_free(mmd_camera_track *c)
{
    if (!c)
        return;
    free(c->cam_frames), free(c->light_frames), free(c->shadow_frames);
    free(c->cam), free(c->light), free(c->shadow);
    free(c);
}

mmd_status mmd_camera_track_create(const mmd_motion *mo, mmd_camera_track **out, mmd_error *err)
{
    mmd_camera_track *c = calloc(1, sizeof *c);
    if (!c)
        return mmd_error_set(err, MMD_E_NOMEM, "camera", -1, -1, "no memory");
    uint32_t nc = mo ? mo->camera_key_count : 0, nl = mo ? mo->light_key_count : 0;
    uint32_t ns = mo ? mo->shadow_key_count : 0;
    uint32_t nmax = nc > nl ? nc : nl;
    nmax = nmax > ns ? nmax : ns;
    uint32_t *idx = malloc((nmax ? nmax : 1) * sizeof *idx);
    c->cam_frames = malloc((nc ? nc : 1) * sizeof *c->cam_frames);
    c->light_frames = malloc((nl ? nl : 1) * sizeof *c->light_frames);
    c->shadow_frames = malloc((ns ? ns : 1) * sizeof *c->shadow_frames);
    c->cam = malloc((nc ? nc : 1) * sizeof *c->cam);
    c->light = malloc((nl ? nl : 1) * sizeof *c->light);
    c->shadow = malloc((ns ? ns : 1) * sizeof *c->shadow);
    if (!idx || !c->cam_frames || !c->light_frames || !c->shadow_frames || !c->cam || !c->light || !c->shadow)
        goto nomem;
    if (nc) {
        uint32_t m = sort_unique(mo->camera_keys, sizeof *mo->camera_keys, nc, idx, c->cam_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            const mmd_camera_key *k = &mo->camera_keys[idx[i]];
            cam_key *d = &c->cam[i];
            memcpy(d->target, k->target, sizeof d->target);
            memcpy(d->rot, k->rotation, sizeof d->rot);
            d->distance = k->distance;
            d->fov = (float)k->fov;
            d->ortho = k->perspective != 0;
            for (int g = 0; g < 6; g++)
                d->curve[g] = mmd_curve_camera(k->interp, g);
            if (k->frame > c->last_frame)
                c->last_frame = k->frame;
        }
        c->ncam = m;
    }
    if (nl) {
        uint32_t m = sort_unique(mo->light_keys, sizeof *mo->light_keys, nl, idx, c->light_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            c->light[i] = mo->light_keys[idx[i]];
            if (c->light[i].frame > c->last_frame)
                c->last_frame = c->light[i].frame;
        }
        c->nlight = m;
    }
    if (ns) {
        uint32_t m = sort_unique(mo->shadow_keys, sizeof *mo->shadow_keys, ns, idx, c->shadow_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            c->shadow[i] = mo->shadow_keys[idx[i]];
            if (c->shadow[i].frame > c->last_frame)
                c->last_frame = c->shadow[i].frame;
        }
        c->nshadow = m;
    }
    free(idx);
    *out = c;
    return MMD_OK;
nomem:
    free(idx);
    mmd_camera_track_free(c);
    return mmd_error_set(err, MMD_E_NOMEM, "camera", -1, -1, "no memory for %u camera keys", nc);
}

bool mmd_camera_track_has_camera(const mmd_camera_track *c) { return c && c->ncam > 0; }
bool mmd_camera_track_has_light(const mmd_camera_track *c) { return c && c->nlight > 0; }
uint32_t mmd_camera_track_last_frame(const mmd_camera_track *c) { return c ? c->last_frame : 0; }

static void cam_set(mmd_camera_state *o, const cam_key *k)
{
    memcpy(o->target, k->target, sizeof o->target);
    memcpy(o->rotation, k->rot, sizeof o->rotation);
    o->distance = k->distance;
    o->fov = k->fov;
    o->ortho = k->ortho;
}

void mmd_camera_sample(mmd_camera_track *c, double t, mmd_camera_state *out)
{
    memset(out, 0, sizeof *out);
    out->target[1] = 10.0f;
    out->distance = -45.0f;
    out->fov = 30.0f;
    if (c && c->ncam) {
        int32_t i = mmd_key_find(c->cam_frames, c->ncam, t, &c->ccur);
        if (i < 0 || (uint32_t)i + 1 >= c->ncam) {
            cam_set(out, &c->cam[i < 0 ? 0 : i]);
        } else {
            const cam_key *ka = &c->cam[i], *kb = &c->cam[i + 1];
            double fa = c->cam_frames[i], fb = c->cam_frames[i + 1];
            cam_set(out, ka);
            if (fb - fa > 1.0) { /* keys <= 1 frame apart are cuts: hold A */
                double s = (t - fa) / (fb - fa);
                for (int a = 0; a < 3; a++) {
                    double y = mmd_bezier(&kb->curve[a], s);
                    out->target[a] = (float)(ka->target[a] + (kb->target[a] - ka->target[a]) * y);
                }
                double yr = mmd_bezier(&kb->curve[3], s);
                for (int a = 0; a < 3; a++)
                    out->rotation[a] = (float)(ka->rot[a] + (kb->rot[a] - ka->rot[a]) * yr);
                double yd = mmd_bezier(&kb->curve[4], s), yf = mmd_bezier(&kb->curve[5], s);
                out->distance = (float)(ka->distance + (kb->distance - ka->distance) * yd);
                out->fov = (float)(ka->fov + (kb->fov - ka->fov) * yf);
            }
        }
    }
    mmd_camera_derive(out);
}

void mmd_light_sample(mmd_camera_track *c, double t, mmd_light_state *out)
{
    float g = 154.0f / 255.0f;
    out->color[0] = out->color[1] = out->color[2] = g;
    out->direction[0] = -0.5f, out->direction[1] = -1.0f, out->direction[2] = 0.5f;
    if (!c || !c->nlight)
        return;
    int32_t i = mmd_key_find(c->light_frames, c->nlight, t, &c->lcur);
    if (i < 0 || (uint32_t)i + 1 >= c->nlight) {
        const mmd_light_key *k = &c->light[i < 0 ? 0 : i];
        memcpy(out->color, k->color, sizeof out->color);
        memcpy(out->direction, k->direction, sizeof out->direction);
        return;
    }
    const mmd_light_key *ka = &c->light[i], *kb = &c->light[i + 1];
    double s = (t - ka->frame) / ((double)kb->frame - ka->frame);
    for (int a = 0; a < 3; a++) {
        out->color[a] = (float)(ka->color[a] + (kb->color[a] - ka->color[a]) * s);
        out->direction[a] = (float)(ka->direction[a] + (kb->direction[a] - ka->direction[a]) * s);
    }
}

void mmd_shadow_sample(mmd_camera_track *c, double t, mmd_shadow_state *out)
{
    out->mode = 1;
    out->distance = (10000.0f - 8875.0f) * 1e-5f;
    if (!c || !c->nshadow)
        return;
    int32_t i = mmd_key_find(c->shadow_frames, c->nshadow, t, &c->scur);
    const mmd_shadow_key *k = &c->shadow[i < 0 ? 0 : i];
    out->mode = k->mode <= 2 ? k->mode : 1;
    out->distance = k->distance;
}

/* R = Ry(-ry) · Rx(-rx) · Rz(-rz) applied to v (LH, column vectors). */
static void cam_rotate(const float rot[3], const double v[3], double o[3])
{
    double cx = cos(-rot[0]), sx = sin(-rot[0]), cy = cos(-rot[1]), sy = sin(-rot[1]);
    double cz = cos(-rot[2]), sz = sin(-rot[2]);
    /* Rz */
    double x = cz * v[0] - sz * v[1], y = sz * v[0] + cz * v[1], z = v[2];
    /* Rx */
    double y2 = cx * y - sx * z, z2 = sx * y + cx * z;
    /* Ry */
    o[0] = cy * x + sy * z2;
    o[1] = y2;
    o[2] = -sy * x + cy * z2;
}

void mmd_camera_derive(mmd_camera_state *s)
{
    double off[3], up[3];
    const double v0[3] = {0, 0, s->distance}, vu[3] = {0, 1, 0};
    cam_rotate(s->rotation, v0, off);
    cam_rotate(s->rotation, vu, up);
    for (int a = 0; a < 3; a++) {
        s->eye[a] = (float)(s->target[a] + off[a]);
        s->up[a] = (float)up[a];
    }
}

void mmd_camera_matrices(const mmd_camera_state *s, float aspect, float view[16], float proj[16])
{
    /* LH -> GL: mirror Z (DESIGN A.6). Forward = R·(0,0,1), up = R·(0,1,0). */
    double f[3], u[3], e[3];
    const double vz[3] = {0, 0, 1}, vy[3] = {0, 1, 0};
    cam_rotate(s->rotation, vz, f);
    cam_rotate(s->rotation, vy, u);
    double off[3];
    const double v0[3] = {0, 0, s->distance};
    cam_rotate(s->rotation, v0, off);
    for (int a = 0; a < 3; a++)
        e[a] = (double)s->target[a] + off[a];
    e[2] = -e[2], f[2] = -f[2], u[2] = -u[2];
    /* lookAt (RH): camera looks along f */
    double r[3] = {f[1] * u[2] - f[2] * u[1], f[2] * u[0] - f[0] * u[2], f[0] * u[1] - f[1] * u[0]};
    double rl = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    if (rl > 0)
        r[0] /= rl, r[1] /= rl, r[2] /= rl;
    double uu[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
    memset(view, 0, 16 * sizeof *view);
    for (int a = 0; a < 3; a++) {
        view[4 * a + 0] = (float)r[a];
        view[4 * a + 1] = (float)uu[a];
        view[4 * a + 2] = (float)-f[a];
    }
    view[12] = (float)-(r[0] * e[0] + r[1] * e[1] + r[2] * e[2]);
    view[13] = (float)-(uu[0] * e[0] + uu[1] * e[1] + uu[2] * e[2]);
    view[14] = (float)(f[0] * e[0] + f[1] * e[1] + f[2] * e[2]);
    view[15] = 1.0f;

    double fov = (double)s->fov * M_PI / 180.0;
    if (!(fov > 0.0) || fov >= M_PI)
        fov = 30.0 * M_PI / 180.0;
    if (!(aspect > 0))
        aspect = 1.0f;
    const double n = 0.5, fa = 10000.0;
    memset(proj, 0, 16 * sizeof *proj);
    if (!s->ortho) {
        double t = 1.0 / tan(fov / 2);
        proj[0] = (float)(t / aspect);
        proj[5] = (float)t;
        proj[10] = (float)((fa + n) / (n - fa));
        proj[11] = -1.0f;
        proj[14] = (float)(2 * fa * n / (n - fa));
    } else {
        double h = 2.0 * fabs((double)s->distance) * tan(fov / 2), w = h * aspect;
        double on = -fa, of = fa;
        if (!(h > 0))
            h = 1, w = aspect;
        proj[0] = (float)(2.0 / w);
        proj[5] = (float)(2.0 / h);
        proj[10] = (float)(-2.0 / (of - on));
        proj[14] = (float)(-(of + on) / (of - on));
        proj[15] = 1.0f;
    }
}
