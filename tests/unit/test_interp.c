/* tests/unit/test_interp.c - Bezier solving, curve byte layout, slerp and key
 * lookup with hand-computed answers. */
#include "core/interp.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

TEST(bezier_linear_and_edges)
{
    mmd_curve c = mmd_curve_make(20, 20, 107, 107);
    CHECK(c.linear);
    CHECK_NEAR(mmd_bezier(&c, 0.3), 0.3, 0);
    CHECK_NEAR(mmd_bezier(&c, -1), 0, 0);
    CHECK_NEAR(mmd_bezier(&c, 2), 1, 0);
    /* control points on the diagonal but not "linear"-flagged: still y = s */
    mmd_curve d = mmd_curve_make(40, 40, 40, 40);
    CHECK_NEAR(mmd_bezier(&d, 0.37), 0.37, 1e-12);
}

TEST(bezier_ease_and_steep)
{
    /* ease in-out (127,0,0,127): x(u) = 3u(1-u)^2 + u^3, y(u) = 3u^2(1-u) + u^3.
     * Symmetric: s = 0.5 -> 0.5. Check a point by solving for u = 0.25 exactly. */
    mmd_curve c = mmd_curve_make(127, 0, 0, 127);
    CHECK_NEAR(mmd_bezier(&c, 0.5), 0.5, 1e-12);
    double u = 0.25;
    double x = 3 * u * (1 - u) * (1 - u) + u * u * u, y = 3 * u * u * (1 - u) + u * u * u;
    CHECK_NEAR(mmd_bezier(&c, x), y, 1e-10);
    /* steep: (0,127,0,127): x(u) = u^3 -> y = 3u(1-u)^2*1 + 3u^2(1-u) + u^3 = 3u - 3u^2 + u^3 */
    mmd_curve s = mmd_curve_make(0, 127, 0, 127);
    u = 0.2;
    CHECK_NEAR(mmd_bezier(&s, u * u * u), 3 * u - 3 * u * u + u * u * u, 1e-9);
    u = 0.01;
    CHECK_NEAR(mmd_bezier(&s, u * u * u), 3 * u - 3 * u * u + u * u * u, 1e-7);
    /* monotonic over a fine sweep */
    double prev = 0;
    for (int i = 0; i <= 1000; i++) {
        double v = mmd_bezier(&s, i / 1000.0);
        CHECK(v >= prev - 1e-12);
        prev = v;
    }
}

TEST(curve_rows_and_physics_flag)
{
    uint8_t in[64] = {0};
    /* channel c reads row c: bytes 16c + 0, 4, 8, 12 */
    for (int c = 0; c < 4; c++) {
        in[16 * c + 0] = (uint8_t)(10 + c), in[16 * c + 4] = (uint8_t)(20 + c);
        in[16 * c + 8] = (uint8_t)(30 + c), in[16 * c + 12] = (uint8_t)(40 + c);
    }
    in[2] = 0x63, in[3] = 0x0F; /* physics off: must not leak into Z/Rot */
    for (int c = 0; c < 4; c++) {
        mmd_curve k = mmd_curve_bone(in, c);
        CHECK_NEAR(k.x1 * 127, 10 + c, 1e-4);
        CHECK_NEAR(k.y1 * 127, 20 + c, 1e-4);
        CHECK_NEAR(k.x2 * 127, 30 + c, 1e-4);
        CHECK_NEAR(k.y2 * 127, 40 + c, 1e-4);
    }
    CHECK(mmd_interp_physics_off(in));
    in[3] = 0;
    CHECK(!mmd_interp_physics_off(in));
    /* camera groups are [x1, x2, y1, y2] */
    uint8_t cam[24] = {0};
    cam[4 * 5 + 0] = 1, cam[4 * 5 + 1] = 2, cam[4 * 5 + 2] = 3, cam[4 * 5 + 3] = 4;
    mmd_curve f = mmd_curve_camera(cam, 5);
    CHECK_NEAR(f.x1 * 127, 1, 1e-4);
    CHECK_NEAR(f.x2 * 127, 2, 1e-4);
    CHECK_NEAR(f.y1 * 127, 3, 1e-4);
    CHECK_NEAR(f.y2 * 127, 4, 1e-4);
}

TEST(slerp_shortest_arc)
{
    float a[4] = {0, 0, 0, 1};
    float s = sinf(0.5f), c = cosf(0.5f); /* 1 rad about Z */
    float b[4] = {0, 0, -s, -c};          /* same rotation, negated quaternion */
    float o[4];
    mmd_quat_slerp(a, b, 0.5f, o);
    /* half-way = 0.5 rad about Z (not the long way round) */
    CHECK_NEAR(fabsf(o[2]), sinf(0.25f), 1e-6);
    CHECK_NEAR(fabsf(o[3]), cosf(0.25f), 1e-6);
    CHECK(o[2] * o[3] > 0);
    mmd_quat_slerp(a, b, 0, o);
    CHECK_NEAR(o[3], 1, 1e-7);
    mmd_quat_slerp(a, a, 0.3f, o); /* identical inputs */
    CHECK_NEAR(o[3], 1, 1e-7);
}

TEST(key_find_sequential_and_random)
{
    uint32_t fr[5] = {0, 10, 20, 30, 40}, cur = 0;
    CHECK_EQ_INT(mmd_key_find(fr, 5, -1, &cur), -1);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 0, &cur), 0);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 9.99, &cur), 0);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 10, &cur), 1);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 10.5, &cur), 1);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 35, &cur), 3);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 99, &cur), 4);
    CHECK_EQ_INT(mmd_key_find(fr, 5, 5, &cur), 0); /* jump back */
    cur = 1000;                                    /* bad hint */
    CHECK_EQ_INT(mmd_key_find(fr, 5, 25, &cur), 2);
    CHECK_EQ_INT(mmd_key_find(fr, 0, 25, &cur), -1);
}

int main(void)
{
    RUN(bezier_linear_and_edges);
    RUN(bezier_ease_and_steep);
    RUN(curve_rows_and_physics_flag);
    RUN(slerp_shortest_arc);
    RUN(key_find_sequential_and_random);
    return test_finish();
}
