/* core/interp.c - Bezier solving, slerp and key lookup (see interp.h). */
#include "core/interp.h"

#include <math.h>

mmd_curve mmd_curve_make(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2)
{
    mmd_curve c;
    c.x1 = (float)(x1 & 0x7f) / 127.0f;
    c.y1 = (float)(y1 & 0x7f) / 127.0f;
    c.x2 = (float)(x2 & 0x7f) / 127.0f;
    c.y2 = (float)(y2 & 0x7f) / 127.0f;
    c.linear = (x1 & 0x7f) == (y1 & 0x7f) && (x2 & 0x7f) == (y2 & 0x7f);
    return c;
}

/* Cubic Bezier component with P0 = 0, P3 = 1. */
static double bz(double p1, double p2, double u)
{
    double v = 1.0 - u;
    return 3.0 * v * v * u * p1 + 3.0 * v * u * u * p2 + u * u * u;
}

static double bz_d(double p1, double p2, double u)
{
    double v = 1.0 - u;
    return 3.0 * v * v * p1 + 6.0 * v * u * (p2 - p1) + 3.0 * u * u * (1.0 - p2);
}

double mmd_bezier(const mmd_curve *c, double s)
{
    if (!(s > 0.0))
        return 0.0;
    if (s >= 1.0)
        return 1.0;
    if (c->linear)
        return s;
    double x1 = c->x1, x2 = c->x2;
    /* x(u) is monotonic for control x in [0,1]: bisection bracket [lo,hi]. */
    double lo = 0.0, hi = 1.0, u = s;
    for (int i = 0; i < 12; i++) {
        double f = bz(x1, x2, u) - s;
        if (fabs(f) < 1e-12)
            goto done;
        if (f > 0)
            hi = u;
        else
            lo = u;
        double d = bz_d(x1, x2, u);
        double n = (fabs(d) > 1e-9) ? u - f / d : -1.0;
        u = (n > lo && n < hi) ? n : 0.5 * (lo + hi);
    }
    for (int i = 0; i < 60 && hi - lo > 1e-14; i++) {
        double f = bz(x1, x2, u) - s;
        if (f > 0)
            hi = u;
        else
            lo = u;
        u = 0.5 * (lo + hi);
    }
done:
    return bz(c->y1, c->y2, u);
}

mmd_curve mmd_curve_bone(const uint8_t interp[64], int channel)
{
    const uint8_t *r = interp + 16 * channel;
    return mmd_curve_make(r[0], r[4], r[8], r[12]);
}

bool mmd_interp_physics_off(const uint8_t interp[64])
{
    return interp[2] == 0x63 && interp[3] == 0x0F;
}

mmd_curve mmd_curve_camera(const uint8_t interp[24], int g)
{
    const uint8_t *r = interp + 4 * g;
    return mmd_curve_make(r[0], r[2], r[1], r[3]);
}

void mmd_quat_slerp(const float a[4], const float b[4], float t, float out[4])
{
    double ax = a[0], ay = a[1], az = a[2], aw = a[3];
    double bx = b[0], by = b[1], bz_ = b[2], bw = b[3];
    double d = ax * bx + ay * by + az * bz_ + aw * bw;
    if (d < 0) {
        d = -d;
        bx = -bx, by = -by, bz_ = -bz_, bw = -bw;
    }
    double ka, kb;
    if (d > 0.9999995) {
        ka = 1.0 - t;
        kb = t;
    } else {
        double th = acos(d), sn = sin(th);
        ka = sin((1.0 - t) * th) / sn;
        kb = sin(t * th) / sn;
    }
    double x = ka * ax + kb * bx, y = ka * ay + kb * by, z = ka * az + kb * bz_, w = ka * aw + kb * bw;
    double l = sqrt(x * x + y * y + z * z + w * w);
    if (l > 0) {
        x /= l, y /= l, z /= l, w /= l;
    } else {
        x = y = z = 0, w = 1;
    }
    out[0] = (float)x, out[1] = (float)y, out[2] = (float)z, out[3] = (float)w;
}

int32_t mmd_key_find(const uint32_t *frames, uint32_t n, double t, uint32_t *cursor)
{
    if (n == 0 || t < (double)frames[0])
        return -1;
    uint32_t c = *cursor < n ? *cursor : 0;
    /* hint: the cached segment or the next one */
    for (int k = 0; k < 2 && c < n; k++, c++) {
        if ((double)frames[c] <= t && (c + 1 == n || t < (double)frames[c + 1])) {
            *cursor = c;
            return (int32_t)c;
        }
        if ((double)frames[c] > t)
            break;
    }
    uint32_t lo = 0, hi = n; /* first index with frame > t */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)frames[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    *cursor = lo - 1;
    return (int32_t)(lo - 1);
}
