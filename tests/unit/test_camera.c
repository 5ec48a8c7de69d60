/* tests/unit/test_camera.c - camera defaults, sampling (curves, cuts),
 * eye/up derivation and the GL matrices (hand-computed). */
#include "core/arena.h"
#include "core/camera.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_motion *cam_motion(uint32_t n)
{
    mmd_arena *ar = mmd_arena_create();
    mmd_motion *mo = mmd_arena_alloc(ar, sizeof *mo);
    mo->arena = ar;
    mo->camera_key_count = n;
    mo->camera_keys = mmd_arena_array(ar, n, sizeof *mo->camera_keys);
    for (uint32_t i = 0; i < n; i++) {
        mmd_camera_key *k = &mo->camera_keys[i];
        k->distance = -45;
        k->fov = 30;
        for (int g = 0; g < 6; g++) {
            k->interp[4 * g + 0] = 20, k->interp[4 * g + 1] = 107; /* x1, x2 */
            k->interp[4 * g + 2] = 20, k->interp[4 * g + 3] = 107; /* y1, y2 */
        }
    }
    return mo;
}

TEST(defaults)
{
    mmd_camera_track *c = NULL;
    REQUIRE(mmd_camera_track_create(NULL, &c, NULL) == MMD_OK);
    CHECK(!mmd_camera_track_has_camera(c));
    mmd_camera_state s;
    mmd_camera_sample(c, 12.5, &s);
    CHECK_NEAR(s.target[1], 10, 0);
    CHECK_NEAR(s.distance, -45, 0);
    CHECK_NEAR(s.fov, 30, 0);
    CHECK(!s.ortho);
    CHECK_NEAR(s.eye[0], 0, 1e-6);
    CHECK_NEAR(s.eye[1], 10, 1e-6);
    CHECK_NEAR(s.eye[2], -45, 1e-5);
    CHECK_NEAR(s.up[1], 1, 1e-6);
    mmd_light_state l;
    mmd_light_sample(c, 0, &l);
    CHECK_NEAR(l.color[0], 154.0 / 255.0, 1e-6);
    CHECK_NEAR(l.direction[1], -1, 0);
    mmd_shadow_state sh;
    mmd_shadow_sample(c, 0, &sh);
    CHECK_EQ_INT(sh.mode, 1);
    CHECK_NEAR(sh.distance, 0.01125, 1e-7);
    /* GL view: eye (0,10,45) looking down -Z: a pure translation */
    float v[16], p[16];
    mmd_camera_matrices(&s, 2.0f, v, p);
    CHECK_NEAR(v[0], 1, 1e-6);
    CHECK_NEAR(v[5], 1, 1e-6);
    CHECK_NEAR(v[10], 1, 1e-6);
    CHECK_NEAR(v[12], 0, 1e-5);
    CHECK_NEAR(v[13], -10, 1e-5);
    CHECK_NEAR(v[14], -45, 1e-4);
    double f = 1.0 / tan(15.0 * M_PI / 180.0);
    CHECK_NEAR(p[5], f, 1e-5);
    CHECK_NEAR(p[0], f / 2, 1e-5);
    CHECK_NEAR(p[11], -1, 0);
    mmd_camera_track_free(c);
    mmd_camera_track_free(NULL);
}

TEST(yaw_and_pitch)
{
    mmd_camera_state s = {0};
    s.distance = -45, s.fov = 30;
    s.rotation[1] = (float)(M_PI / 2); /* Ry(-90): (0,0,-45) -> (45,0,0) */
    mmd_camera_derive(&s);
    CHECK_NEAR(s.eye[0], 45, 1e-4);
    CHECK_NEAR(s.eye[2], 0, 1e-4);
    s.rotation[1] = 0;
    s.rotation[0] = (float)(M_PI / 2);
    mmd_camera_derive(&s);
    /* Rx(a): y' = cos a y - sin a z, z' = sin a y + cos a z with a = -90: y' = z = -45 */
    CHECK_NEAR(s.eye[1], -45, 1e-4);
    CHECK_NEAR(s.eye[2], 0, 1e-4);
    /* up = R (0,1,0): y' = 0, z' = sin(-90) = -1 */
    CHECK_NEAR(s.up[2], -1, 1e-6);
}

TEST(cut_holds_and_curves)
{
    mmd_motion *mo = cam_motion(3);
    mo->camera_keys[0].frame = 0;
    mo->camera_keys[1].frame = 1;
    mo->camera_keys[1].target[0] = 10;
    mo->camera_keys[2].frame = 11;
    mo->camera_keys[2].target[0] = 20;
    mo->camera_keys[2].fov = 40;
    mo->camera_keys[2].perspective = 1;
    mmd_camera_track *c = NULL;
    REQUIRE(mmd_camera_track_create(mo, &c, NULL) == MMD_OK);
    CHECK(mmd_camera_track_has_camera(c));
    CHECK_EQ_INT(mmd_camera_track_last_frame(c), 11);
    mmd_camera_state s;
    mmd_camera_sample(c, 0.5, &s); /* 1-frame gap: hold A */
    CHECK_NEAR(s.target[0], 0, 0);
    mmd_camera_sample(c, 1.0, &s);
    CHECK_NEAR(s.target[0], 10, 0);
    mmd_camera_sample(c, 6.0, &s); /* linear half-way */
    CHECK_NEAR(s.target[0], 15, 1e-5);
    CHECK_NEAR(s.fov, 35, 1e-5);
    CHECK(!s.ortho); /* step: key A's flag */
    mmd_camera_sample(c, 11.0, &s);
    CHECK(s.ortho);
    /* ortho projection: height 2*45*tan(20 deg) */
    float v[16], p[16];
    mmd_camera_matrices(&s, 1.0f, v, p);
    CHECK_NEAR(p[5], 2.0 / (90.0 * tan(20.0 * M_PI / 180.0)), 1e-6);
    CHECK_NEAR(p[15], 1, 0);
    /* ease-in curve on X only, key B's curve: (x1,y1,x2,y2) = (127,0,127,0)? use (64,0,64,127) */
    mo->camera_keys[2].interp[0] = 127, mo->camera_keys[2].interp[1] = 127; /* x1, x2 */
    mo->camera_keys[2].interp[2] = 0, mo->camera_keys[2].interp[3] = 0;     /* y1, y2 */
    mmd_camera_track_free(c);
    REQUIRE(mmd_camera_track_create(mo, &c, NULL) == MMD_OK);
    mmd_camera_sample(c, 6.0, &s);
    /* x(u) = 3u(1-u)^2 + 3u^2(1-u) + u^3 = 3u - 3u^2 + u^3; y(u) = u^3. s = .5 -> u = 1 - 0.5^(1/3) */
    double u = 1.0 - cbrt(0.5);
    CHECK_NEAR(s.target[0], 10 + 10 * u * u * u, 1e-4);
    mmd_camera_track_free(c);
    mmd_arena_destroy(mo->arena);
}

int main(void)
{
    RUN(defaults);
    RUN(yaw_and_pitch);
    RUN(cut_holds_and_curves);
    return test_finish();
}
