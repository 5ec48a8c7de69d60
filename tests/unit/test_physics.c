/* tests/unit/test_physics.c - rigid-body physics on models built in memory
 * (bones + bodies + joints) and on Gene_light from ../shared. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/anim.h"
#include "core/motion.h"
#include "core/physics.h"
#include "tests/util/skirt_fixture.h"
#include "tests/util/sway_motion.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

#define PI_F 3.14159265358979f
#define MAXB 16

/* A model on the stack: only the fields physics reads. */
typedef struct fixture {
    mmd_model m;
    mmd_bone bones[MAXB];
    mmd_rigid_body bodies[MAXB];
    mmd_joint joints[MAXB];
} fixture;

static void fx_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->m.bones = f->bones;
    f->m.rigid_bodies = f->bodies;
    f->m.joints = f->joints;
}

static int32_t fx_bone(fixture *f, float x, float y, float z, int32_t parent)
{
    mmd_bone *b = &f->bones[f->m.bone_count];
    b->position[0] = x, b->position[1] = y, b->position[2] = z;
    b->parent = parent;
    b->tail_bone = -1;
    b->append_parent = -1;
    b->ik_target = -1;
    return (int32_t)f->m.bone_count++;
}

static mmd_rigid_body *fx_body(fixture *f, int32_t bone, uint8_t shape, uint8_t mode)
{
    mmd_rigid_body *rb = &f->bodies[f->m.rigid_body_count++];
    rb->bone = bone;
    rb->shape = shape;
    rb->mode = mode;
    rb->group = 1;
    rb->no_collide_mask = 0x0001; /* ground only: bodies of group 1 never touch */
    rb->mass = mode ? 1.0f : 0.0f;
    rb->linear_damping = 0.5f;
    rb->angular_damping = 0.5f;
    rb->friction = 0.5f;
    return rb;
}

static mmd_joint *fx_joint(fixture *f, int32_t a, int32_t b, float x, float y, float z)
{
    mmd_joint *j = &f->joints[f->m.joint_count++];
    j->type = MMD_JOINT_SPRING_6DOF;
    j->body_a = a, j->body_b = b;
    j->position[0] = x, j->position[1] = y, j->position[2] = z;
    /* rotation free (lower > upper), translation locked */
    for (int k = 0; k < 3; k++) {
        j->angular_lower[k] = 1.0f;
        j->angular_upper[k] = -1.0f;
    }
    return j;
}

/* column-major helpers, written independently of the bridge */
static void mat_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void mat_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + rr] * b[c * 4 + k];
            r[c * 4 + rr] = s;
        }
    memcpy(out, r, sizeof r);
}

/* T(t) * Ry(ry) * Rx(rx) * Rz(rz) */
static void mat_pose(float tx, float ty, float tz, float rx, float ry, float rz, float m[16])
{
    float X[16], Y[16], Z[16], T[16];
    mat_identity(X), mat_identity(Y), mat_identity(Z), mat_identity(T);
    X[5] = cosf(rx), X[6] = sinf(rx), X[9] = -sinf(rx), X[10] = cosf(rx);
    Y[0] = cosf(ry), Y[2] = -sinf(ry), Y[8] = sinf(ry), Y[10] = cosf(ry);
    Z[0] = cosf(rz), Z[1] = sinf(rz), Z[4] = -sinf(rz), Z[5] = cosf(rz);
    T[12] = tx, T[13] = ty, T[14] = tz;
    mat_mul(T, Y, m);
    mat_mul(m, X, m);
    mat_mul(m, Z, m);
}

static void rest_pose(const mmd_model *m, float *world)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        mat_identity(world + i * 16);
        memcpy(world + i * 16 + 12, m->bones[i].position, 3 * sizeof(float));
    }
}

/* Anchor (mode 0 sphere) at (0,20,0) and n capsules of length 2 laid out
 * horizontally along +X, each jointed to the previous at its root. */
static void build_chain(fixture *f, int n)
{
    fx_init(f);
    int32_t root = fx_bone(f, 0, 20, 0, -1);
    mmd_rigid_body *a = fx_body(f, root, MMD_SHAPE_SPHERE, MMD_BODY_FOLLOW_BONE);
    a->size[0] = 0.5f;
    a->position[1] = 20;
    int32_t parent = root;
    for (int k = 1; k <= n; k++) {
        float x0 = 2.0f * (float)(k - 1);
        int32_t bone = fx_bone(f, x0, 20, 0, parent);
        mmd_rigid_body *c = fx_body(f, bone, MMD_SHAPE_CAPSULE, MMD_BODY_PHYSICS);
        c->size[0] = 0.3f, c->size[1] = 1.2f;
        c->position[0] = x0 + 1.0f, c->position[1] = 20;
        c->rotation[2] = PI_F / 2; /* capsule axis (Y) along X */
        fx_joint(f, k - 1, k, x0, 20, 0);
        parent = bone;
    }
}

TEST(euler_order_is_yxz)
{
    fixture f;
    fx_init(&f);
    int32_t b = fx_bone(&f, 1, 2, 3, -1);
    mmd_rigid_body *rb = fx_body(&f, b, MMD_SHAPE_BOX, MMD_BODY_FOLLOW_BONE);
    rb->size[0] = rb->size[1] = rb->size[2] = 1;
    rb->position[0] = 1, rb->position[1] = 5, rb->position[2] = 3;
    rb->rotation[1] = PI_F / 2;     /* Ry(90): +X -> -Z */
    rb->rotation[0] = PI_F / 2;     /* then Rx(90) first applied: +Y -> +Z -> Ry -> +X */
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float w[16];
    mmd_physics_body_world(p, 0, w);
    /* R = Ry(90) Rx(90): column 0 = Ry*(1,0,0) = (0,0,-1);
     * column 1 = Ry*Rx*(0,1,0) = Ry*(0,0,1) = (1,0,0); column 2 = Ry*(0,-1,0) */
    CHECK_NEAR(w[0], 0, 1e-6); CHECK_NEAR(w[1], 0, 1e-6); CHECK_NEAR(w[2], -1, 1e-6);
    CHECK_NEAR(w[4], 1, 1e-6); CHECK_NEAR(w[5], 0, 1e-6); CHECK_NEAR(w[6], 0, 1e-6);
    CHECK_NEAR(w[8], 0, 1e-6); CHECK_NEAR(w[9], -1, 1e-6); CHECK_NEAR(w[10], 0, 1e-6);
    CHECK_NEAR(w[12], 1, 1e-6); CHECK_NEAR(w[13], 5, 1e-6); CHECK_NEAR(w[14], 3, 1e-6);
    float off[16];
    mmd_physics_body_offset(p, 0, off); /* T(-bone) * body: translation (0,3,0) */
    CHECK_NEAR(off[12], 0, 1e-6); CHECK_NEAR(off[13], 3, 1e-6); CHECK_NEAR(off[14], 0, 1e-6);
    mmd_physics_free(p);
    mmd_physics_free(NULL);
}

TEST(substeps_are_fixed_120hz)
{
    fixture f;
    build_chain(&f, 1);
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float world[2 * 16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    uint32_t total = 0;
    int bad = 0;
    for (int i = 0; i < 300; i++) {
        uint32_t n = mmd_physics_step(p, 1.0 / 30.0, world, world);
        bad += n != 4;
        total += n;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(total, 1200);
    CHECK_EQ_INT(mmd_physics_step(p, 1.0 / 60.0, world, world), 2);
    CHECK_EQ_INT(mmd_physics_step(p, 1.0 / 24.0, world, world), 5);
    /* 1/240 s twice = one substep in all */
    CHECK_EQ_INT(mmd_physics_step(p, 1.0 / 240.0, world, world) +
                 mmd_physics_step(p, 1.0 / 240.0, world, world), 1);
    CHECK_EQ_INT(mmd_physics_step(p, 0.0, world, world), 0);
    CHECK_EQ_INT(mmd_physics_step(p, -1.0, world, world), 0);
    CHECK_EQ_INT(mmd_physics_step(p, 1e9, world, world), MMD_PHYSICS_MAX_SUBSTEPS);
    mmd_physics_free(p);
}

TEST(chain_hangs_straight_down)
{
    enum { N = 4 };
    fixture f;
    build_chain(&f, N);
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    CHECK(!mmd_physics_drives_bone(p, 0));
    CHECK(mmd_physics_drives_bone(p, 1));
    float world[(N + 1) * 16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    float out[(N + 1) * 16];
    for (int i = 0; i < 30 * 20; i++) /* 20 s */
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    /* analytic rest: every segment straight down from the anchor, bone k at
     * (0, 20 - 2(k-1), 0), its +X axis (the old segment direction) now -Y */
    for (int k = 1; k <= N; k++) {
        const float *b = out + k * 16;
        CHECK_NEAR(b[12], 0, 0.05);
        CHECK_NEAR(b[13], 20 - 2.0f * (float)(k - 1), 0.05);
        CHECK_NEAR(b[14], 0, 0.05);
        CHECK_NEAR(b[1], -1, 0.01); /* x axis . world y */
        float body[16];
        mmd_physics_body_world(p, (uint32_t)k, body);
        CHECK_NEAR(fabsf(body[5]), 1, 0.01); /* capsule axis vertical */
        CHECK_NEAR(body[13], 20 - 2.0f * (float)k + 1, 0.05);
    }
    /* the anchor bone was not written */
    CHECK(memcmp(out, world, 16 * sizeof(float)) == 0);
    mmd_physics_free(p);
}

TEST(follow_bone_body_tracks_its_bone)
{
    fixture f;
    fx_init(&f);
    int32_t b0 = fx_bone(&f, 0, 10, 0, -1);
    int32_t b1 = fx_bone(&f, 0, 8, 0, b0);
    mmd_rigid_body *k = fx_body(&f, b0, MMD_SHAPE_BOX, MMD_BODY_FOLLOW_BONE);
    k->size[0] = 0.5f, k->size[1] = 1, k->size[2] = 0.25f;
    k->position[0] = 0.5f, k->position[1] = 11, k->position[2] = -0.25f;
    k->rotation[0] = 0.3f, k->rotation[1] = -0.7f, k->rotation[2] = 1.1f;
    mmd_rigid_body *d = fx_body(&f, b1, MMD_SHAPE_SPHERE, MMD_BODY_PHYSICS);
    d->size[0] = 0.5f;
    d->position[1] = 8;
    fx_joint(&f, 0, 1, 0, 9, 0);
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float world[2 * 16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    float offset[16];
    mat_pose(0.5f, 1, -0.25f, 0.3f, -0.7f, 1.1f, offset); /* T(-bone)*body */
    double worst = 0;
    for (int i = 1; i <= 90; i++) {
        float t = (float)i / 30.0f;
        mat_pose(3 * sinf(t), 10 + cosf(2 * t), t, 0.5f * t, 1.3f * sinf(t), -0.4f * t, world);
        memcpy(world + 16 + 12, world + 12, 3 * sizeof(float));
        mmd_physics_step(p, 1.0 / 30.0, world, world);
        float want[16], got[16];
        mat_mul(world, offset, want);
        mmd_physics_body_world(p, 0, got);
        for (int e = 0; e < 16; e++)
            if (fabs((double)want[e] - got[e]) > worst)
                worst = fabs((double)want[e] - got[e]);
    }
    CHECK(worst <= 1e-5);
    if (worst > 1e-5)
        printf("#   worst element difference %g\n", worst);
    mmd_physics_free(p);
}

TEST(bone_pos_mode_keeps_animated_position)
{
    fixture f;
    fx_init(&f);
    int32_t b = fx_bone(&f, 0, 10, 0, -1);
    mmd_rigid_body *rb = fx_body(&f, b, MMD_SHAPE_BOX, MMD_BODY_PHYSICS_BONE_POS);
    rb->size[0] = rb->size[1] = rb->size[2] = 0.5f;
    rb->position[1] = 10;
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float world[16], out[16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    for (int i = 0; i < 15; i++)
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    float body[16];
    mmd_physics_body_world(p, 0, body);
    CHECK(body[13] < 9.0f);          /* the body fell ~5 units ... */
    CHECK_NEAR(out[12], 0, 1e-6);    /* ... the bone stayed where animated */
    CHECK_NEAR(out[13], 10, 1e-6);
    CHECK_NEAR(out[14], 0, 1e-6);
    /* a mode 1 body drags its bone along */
    rb->mode = MMD_BODY_PHYSICS;
    mmd_physics_free(p);
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    mmd_physics_reset(p, world);
    for (int i = 0; i < 15; i++)
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    mmd_physics_body_world(p, 0, body);
    CHECK_NEAR(out[13], body[13], 1e-5);
    /* free fall for 0.5 s under -98 with damping 0.5: well below the start */
    CHECK(out[13] < 9.0f);
    mmd_physics_free(p);
}

TEST(toggle_kinematic_follows_bone)
{
    fixture f;
    fx_init(&f);
    int32_t b = fx_bone(&f, 0, 10, 0, -1);
    mmd_rigid_body *rb = fx_body(&f, b, MMD_SHAPE_SPHERE, MMD_BODY_PHYSICS);
    rb->size[0] = 0.5f;
    rb->position[1] = 10;
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float world[16], out[16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    mmd_physics_set_body_kinematic(p, 0, true);
    for (int i = 0; i < 10; i++) {
        world[12] = (float)i;
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    }
    float body[16];
    mmd_physics_body_world(p, 0, body);
    CHECK_NEAR(body[12], 9, 1e-5);
    CHECK_NEAR(body[13], 10, 1e-5);
    CHECK(memcmp(out, world, sizeof world) == 0); /* bone not written */
    mmd_physics_set_body_kinematic(p, 0, false);
    for (int i = 0; i < 10; i++)
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    CHECK(out[13] < 9.5f); /* falls again */
    mmd_physics_free(p);
}

/* history > 0: first simulate `history` frames of another motion on the same
 * physics, then reset to the rest pose and run the recorded sequence. */
static void run_chain_after(float *out_all, int frames, int history)
{
    enum { N = 6 };
    fixture f;
    build_chain(&f, N);
    f.bodies[3].no_collide_mask = 0xffff; /* some contacts too */
    f.bodies[3].group = 2;
    mmd_physics *p = NULL;
    if (mmd_physics_create(&f.m, &p, NULL) != MMD_OK)
        return;
    float world[(N + 1) * 16];
    for (int i = 0; i < history; i++) {
        rest_pose(&f.m, world);
        world[12] = -3 + (float)(i % 7);
        world[14] = 2 * sinf((float)i);
        mmd_physics_step(p, 1.0 / 30.0, world, world);
    }
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    for (int i = 0; i < frames; i++) {
        float t = (float)i / 30.0f;
        world[12] = 4 * sinf(3 * t);
        world[13] = 8 + 2 * cosf(2 * t);
        mmd_physics_step(p, 1.0 / 30.0, world, out_all + (size_t)i * (N + 1) * 16);
    }
    mmd_physics_free(p);
}

static void run_chain(float *out_all, int frames)
{
    run_chain_after(out_all, frames, 0);
}

TEST(two_runs_are_bitwise_identical)
{
    enum { FR = 120, SZ = FR * 7 * 16 };
    static float a[SZ], b[SZ];
    memset(a, 0, sizeof a);
    memset(b, 1, sizeof b);
    run_chain(a, FR);
    run_chain(b, FR);
    CHECK(memcmp(a, b, sizeof a) == 0);
    int finite = 1;
    for (int i = 0; i < SZ; i++)
        finite &= isfinite(a[i]);
    CHECK(finite);
}

/* A reset must forget everything: contact caches, broadphase pairs, solver
 * warm-start impulses. Otherwise a seek (or a second pre-roll) on a used
 * physics object gives other results than a fresh one. */
TEST(reset_equals_fresh_world)
{
    enum { FR = 90, SZ = FR * 7 * 16 };
    static float a[SZ], b[SZ];
    memset(a, 0, sizeof a);
    memset(b, 1, sizeof b);
    run_chain_after(a, FR, 0);
    run_chain_after(b, FR, 45);
    CHECK(memcmp(a, b, sizeof a) == 0);
}

TEST(rejects_non_finite_values)
{
    fixture f;
    build_chain(&f, 2);
    f.bodies[1].mass = NAN;
    mmd_physics *p = NULL;
    mmd_error e;
    CHECK_EQ_INT(mmd_physics_create(&f.m, &p, &e), MMD_E_BAD_VALUE);
    CHECK(p == NULL);
    CHECK_EQ_INT(e.item, 1);
    build_chain(&f, 2);
    f.joints[1].spring_angular[2] = INFINITY;
    CHECK_EQ_INT(mmd_physics_create(&f.m, &p, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "physics.joint");
}

/* Attaching says why it cannot, like every core function (issue 26): a NULL
 * argument, or an anim of another model than the bodies', is MMD_E_BAD_VALUE
 * with section "physics" and its sentence; the right anim attaches. */
TEST(attach_failure_has_a_sentence)
{
    fixture f, g;
    build_chain(&f, 2);
    build_chain(&g, 2);
    mmd_physics *p = NULL;
    mmd_anim *mine = NULL, *other = NULL;
    mmd_error e;
    REQUIRE(mmd_physics_create(&f.m, &p, &e) == MMD_OK);
    REQUIRE(mmd_anim_create(&f.m, NULL, 0, &mine, &e) == MMD_OK);
    REQUIRE(mmd_anim_create(&g.m, NULL, 0, &other, &e) == MMD_OK);
    memset(&e, 0, sizeof e);
    CHECK_EQ_INT(mmd_physics_attach(p, other, &e), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(e.status, MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "physics");
    CHECK_STR(e.msg, "cannot attach the rigid bodies to the model's bones");
    CHECK_EQ_INT(mmd_physics_attach(NULL, mine, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.msg, "NULL argument");
    CHECK_EQ_INT(mmd_physics_attach(p, NULL, NULL), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(mmd_physics_attach(p, mine, &e), MMD_OK);
    mmd_physics_free(p);
    mmd_anim_free(mine);
    mmd_anim_free(other);
}

TEST(pmx21_joint_types_build_and_stay_finite)
{
    fixture f;
    for (uint8_t type = MMD_JOINT_6DOF; type <= MMD_JOINT_HINGE; type++) {
        build_chain(&f, 3);
        for (uint32_t j = 0; j < f.m.joint_count; j++) {
            f.joints[j].type = type;
            f.joints[j].angular_lower[0] = -0.5f, f.joints[j].angular_upper[0] = 0.5f;
            f.joints[j].spring_linear[0] = 0.9f, f.joints[j].spring_linear[1] = 0.3f;
            f.joints[j].spring_linear[2] = 1.0f;
        }
        mmd_physics *p = NULL;
        REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
        float world[4 * 16];
        rest_pose(&f.m, world);
        mmd_physics_reset(p, world);
        for (int i = 0; i < 60; i++)
            mmd_physics_step(p, 1.0 / 30.0, world, world);
        int ok = 1;
        for (int i = 0; i < 4 * 16; i++)
            ok &= isfinite(world[i]);
        CHECK(ok);
        /* bodies stay attached: segment 1's root near the anchor */
        CHECK(fabsf(world[16 + 12]) < 1.0f && fabsf(world[16 + 13] - 20) < 1.0f);
        mmd_physics_free(p);
    }
}


/* Joint anchor of joint j on body i (rest frames A0^-1 * J), in world. */
static void joint_anchor(const mmd_model *m, const mmd_physics *p, int32_t body,
                         const mmd_joint *j, float out[3])
{
    const mmd_rigid_body *rb = &m->rigid_bodies[body];
    /* local = R0^T (J - P0) */
    float rest[16];
    mat_pose(rb->position[0], rb->position[1], rb->position[2], rb->rotation[0], rb->rotation[1],
             rb->rotation[2], rest);
    float d[3] = {j->position[0] - rest[12], j->position[1] - rest[13], j->position[2] - rest[14]};
    float l[3];
    for (int r = 0; r < 3; r++)
        l[r] = rest[r * 4 + 0] * d[0] + rest[r * 4 + 1] * d[1] + rest[r * 4 + 2] * d[2];
    float w[16];
    mmd_physics_body_world(p, (uint32_t)body, w);
    for (int r = 0; r < 3; r++)
        out[r] = w[12 + r] + w[r] * l[0] + w[4 + r] * l[1] + w[8 + r] * l[2];
}

/* 600 frames of Gene_light under motion mo: no NaN, bodies near their bones,
 * locked joints holding, physics bones really moved by the physics. */
static void gene_bounded(const mmd_model *m, const mmd_motion *mo, const char *label)
{
    mmd_error e;
    const mmd_motion *mos[1] = {mo};
    mmd_anim *a = NULL, *ref = NULL; /* ref: the same motion without physics */
    REQUIRE(mmd_anim_create(m, mos, 1, &a, &e) == MMD_OK);
    REQUIRE(mmd_anim_create(m, mos, 1, &ref, &e) == MMD_OK);
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(m, &p, &e) == MMD_OK);
    REQUIRE(mmd_physics_attach(p, a, NULL) == MMD_OK);
    mmd_physics_preroll(p, a, 0, 2.0);
    double worst_body = 0, worst_helper = 0, worst_joint = 0;
    float driven_moved = 0; /* physics bones really differ from the animation */
    int nan = 0;
    uint32_t last = mmd_anim_last_frame(a);
    for (int f = 0; f < 600; f++) {
        double t = (double)f;
        mmd_anim_evaluate(a, t);
        mmd_anim_evaluate(ref, t);
        const float *w = mmd_anim_world(a), *wr = mmd_anim_world(ref);
        for (uint32_t i = 0; i < m->bone_count * 16; i++) {
            nan += !isfinite(w[i]);
            if (mmd_physics_drives_bone(p, (int32_t)(i / 16)) && fabsf(w[i] - wr[i]) > driven_moved)
                driven_moved = fabsf(w[i] - wr[i]);
        }
        /* each body vs where its bone's animated (physics-free) pose puts it;
         * collision-less helpers (mask 0: Gene's cloak "weights", one of them
         * authored 92 units below its joint) are counted apart */
        for (uint32_t b = 0; b < m->rigid_body_count; b++) {
            int32_t bone = m->rigid_bodies[b].bone;
            if (bone < 0)
                continue;
            float bw[16], off[16], want[16];
            mmd_physics_body_world(p, b, bw);
            mmd_physics_body_offset(p, b, off);
            mat_mul(wr + bone * 16, off, want);
            double d = hypot(hypot(bw[12] - want[12], bw[13] - want[13]), bw[14] - want[14]);
            double *worst = m->rigid_bodies[b].no_collide_mask ? &worst_body : &worst_helper;
            if (!(d <= *worst))
                *worst = isfinite(d) ? d : 1e30;
        }
        /* joints with locked translation hold: both anchors stay together */
        for (uint32_t j = 0; j < m->joint_count; j++) {
            const mmd_joint *jt = &m->joints[j];
            if (memcmp(jt->linear_lower, jt->linear_upper, sizeof jt->linear_lower) != 0 ||
                !m->rigid_bodies[jt->body_a].no_collide_mask ||
                !m->rigid_bodies[jt->body_b].no_collide_mask)
                continue;
            float pa[3], pb[3];
            joint_anchor(m, p, jt->body_a, jt, pa);
            joint_anchor(m, p, jt->body_b, jt, pb);
            double d = hypot(hypot(pa[0] - pb[0], pa[1] - pb[1]), pa[2] - pb[2]);
            if (!(d <= worst_joint))
                worst_joint = isfinite(d) ? d : 1e30;
        }
    }
    printf("#   Gene_light + %s: motion last frame %u, worst body-bone distance %.3f "
           "(helpers %.3f), worst locked-joint gap %.4f\n", label, last, worst_body, worst_helper, worst_joint);
    CHECK_EQ_INT(nan, 0);
    CHECK(driven_moved > 0.1f);
    CHECK(worst_body < 6.0);   /* the longest hair/skirt chains swing a few units */
    CHECK(worst_helper < 1e3); /* bounded, not NaN, even for the misplaced weight */
    CHECK(worst_joint < 1.0);  /* a locked joint never tears apart */
    mmd_physics_free(p); /* detaches from a */
    mmd_anim_free(a);
    mmd_anim_free(ref);
}

/* Gene_light from ../shared, NULL when it is not there. */
static mmd_model *gene_light(void)
{
    mmd_model *m = NULL;
    if (mmd_model_load_file(MMD_SHARED_ASSETS "/gene/Gene_light.pmx", &m, NULL) != MMD_OK)
        return NULL;
    return m;
}

/* a generated motion (センター sways up to 8 units, turns, bobs) and the shared
 * 22_apology.vmd (its last pose held after its end) */
TEST(gene_light_600_frames_stay_bounded)
{
    mmd_error e;
    mmd_model *m = gene_light();
    if (!m)
        SKIP("skipped: no ../shared");
    CHECK_EQ_INT(m->rigid_body_count, 87);
    CHECK_EQ_INT(m->joint_count, 92);
    mmd_arena *ar = mmd_arena_create();
    REQUIRE(ar);
    const mmd_motion *mo = sway_motion(m, 600, ar);
    REQUIRE(mo && mo->bone_key_count > 0);
    gene_bounded(m, mo, "sway");
    mmd_motion *vmd = NULL;
    REQUIRE(mmd_motion_load_file(MMD_SHARED_ASSETS "/gene/motion/22_apology.vmd", &vmd, &e) == MMD_OK);
    gene_bounded(m, vmd, "22_apology");
    mmd_motion_free(vmd);
    mmd_arena_destroy(ar);
    mmd_model_free(m);
}

/* The whole path (attach, pre-roll, hook per frame) twice from scratch:
 * bitwise identical bone matrices, the property chunked renders rely on. */
static int gene_run(const mmd_model *m, const mmd_motion *mo, int frames, float *out)
{
    const mmd_motion *mos[1] = {mo};
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    if (mmd_anim_create(m, mos, 1, &a, NULL) != MMD_OK)
        return 0;
    if (mmd_physics_create(m, &p, NULL) != MMD_OK || mmd_physics_attach(p, a, NULL) != MMD_OK) {
        mmd_anim_free(a);
        return 0;
    }
    mmd_physics_preroll(p, a, 0, 2.0);
    for (int f = 1; f <= frames; f++)
        mmd_anim_evaluate(a, (double)f);
    memcpy(out, mmd_anim_world(a), (size_t)m->bone_count * 16 * sizeof(float));
    mmd_physics_detach(p);
    mmd_physics_free(p);
    mmd_anim_free(a);
    return 1;
}

/* the same, through the anim hook: a second pre-roll on a used physics object */
TEST(gene_light_preroll_twice_equals_fresh)
{
    mmd_model *m = gene_light();
    if (!m)
        SKIP("skipped: no ../shared");
    mmd_arena *ar = mmd_arena_create();
    REQUIRE(ar);
    const mmd_motion *mo = sway_motion(m, 60, ar);
    REQUIRE(mo);
    const mmd_motion *mos[1] = {mo};
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    REQUIRE(mmd_anim_create(m, mos, 1, &a, NULL) == MMD_OK);
    REQUIRE(mmd_physics_create(m, &p, NULL) == MMD_OK && mmd_physics_attach(p, a, NULL) == MMD_OK);
    size_t n = (size_t)m->bone_count * 16;
    float *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    REQUIRE(x && y);
    mmd_physics_preroll(p, a, 0, 1.0);
    for (int f = 1; f <= 30; f++)
        mmd_anim_evaluate(a, (double)f);
    memcpy(x, mmd_anim_world(a), n * sizeof *x);
    mmd_physics_preroll(p, a, 0, 1.0); /* again, after 30 frames of history */
    for (int f = 1; f <= 30; f++)
        mmd_anim_evaluate(a, (double)f);
    memcpy(y, mmd_anim_world(a), n * sizeof *y);
    CHECK(memcmp(x, y, n * sizeof *x) == 0);
    /* and seeking back (t goes backwards) resets too */
    for (int f = 0; f <= 30; f++)
        mmd_anim_evaluate(a, (double)f);
    mmd_physics_preroll(p, a, 0, 1.0);
    for (int f = 1; f <= 30; f++)
        mmd_anim_evaluate(a, (double)f);
    CHECK(memcmp(x, mmd_anim_world(a), n * sizeof *x) == 0);
    free(x);
    free(y);
    mmd_physics_free(p);
    mmd_anim_free(a);
    mmd_arena_destroy(ar);
    mmd_model_free(m);
}

TEST(gene_light_two_runs_bitwise_identical)
{
    mmd_model *m = gene_light();
    if (!m)
        SKIP("skipped: no ../shared");
    mmd_arena *ar = mmd_arena_create();
    REQUIRE(ar);
    const mmd_motion *mo = sway_motion(m, 120, ar);
    REQUIRE(mo);
    size_t n = (size_t)m->bone_count * 16;
    float *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    REQUIRE(x && y);
    CHECK(gene_run(m, mo, 120, x));
    CHECK(gene_run(m, mo, 120, y));
    CHECK(memcmp(x, y, n * sizeof *x) == 0);
    free(x);
    free(y);
    mmd_arena_destroy(ar);
    mmd_model_free(m);
}

/* Issue 14: the broadphase budget is far from what a real model needs, so it
 * never changes a real simulation: Gene_light with a real dance (and the
 * sway) peaks at a small part of its pairs and tests budget. */
TEST(gene_light_far_under_the_pair_budget)
{
    mmd_model *m = gene_light();
    if (!m)
        SKIP("skipped: no ../shared");
    mmd_motion *vmd = NULL;
    REQUIRE(mmd_motion_load_file(MMD_SHARED_ASSETS "/gene/motion/22_apology.vmd", &vmd, NULL) == MMD_OK);
    const mmd_motion *mos[1] = {vmd};
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    REQUIRE(mmd_anim_create(m, mos, 1, &a, NULL) == MMD_OK);
    REQUIRE(mmd_physics_create(m, &p, NULL) == MMD_OK && mmd_physics_attach(p, a, NULL) == MMD_OK);
    mmd_physics_preroll(p, a, 0, 2.0);
    uint32_t last = mmd_anim_last_frame(a);
    for (uint32_t f = 1; f <= last; f++)
        mmd_anim_evaluate(a, (double)f);
    mmd_physics_work w;
    mmd_physics_work_of(p, &w);
    printf("# Gene_light, 22_apology (%u frames): peak %llu pairs of %llu, %llu tests of %llu\n", last,
           (unsigned long long)w.peak_pairs, (unsigned long long)w.max_pairs, (unsigned long long)w.peak_tests,
           (unsigned long long)w.max_tests);
    CHECK(!w.stopped);
    CHECK_EQ_INT(w.max_pairs, MMD_PHYSICS_PAIRS_BASE + MMD_PHYSICS_PAIRS_PER_BODY * m->rigid_body_count);
    CHECK_EQ_INT(w.max_tests, MMD_PHYSICS_TESTS_PER_PAIR * w.max_pairs);
    CHECK(w.peak_pairs > 0 && w.peak_pairs * 8 < w.max_pairs);
    CHECK(w.peak_tests > 0 && w.peak_tests * 8 < w.max_tests);
    mmd_physics_free(p);
    mmd_anim_free(a);
    mmd_motion_free(vmd);
    mmd_model_free(m);
}

/* Skirt angle at frame `at` of the leg fixture (tests/util/skirt_fixture.h):
 * how = 0 a run from frame 0, 1 the warm-up at `at`, 2 the old start (bodies
 * reset straight to the pose at `at`, then 2 s held) the warm-up replaced. */
static double skirt_angle(int how, float degrees, uint32_t at, double *leg)
{
    mmd_model *m = mmd_test_skirt_model();
    mmd_motion *mo = mmd_test_leg_motion(degrees, at);
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    const mmd_motion *list[1] = {mo};
    if (!m || !mo || mmd_model_validate(m, NULL) != MMD_OK || mmd_anim_create(m, list, 1, &a, NULL) != MMD_OK ||
        mmd_physics_create(m, &p, NULL) != MMD_OK) {
        mmd_anim_free(a);
        mmd_motion_free(mo);
        mmd_model_free(m);
        return NAN;
    }
    if (how == 0) {
        mmd_physics_attach(p, a, NULL);
        mmd_physics_preroll(p, a, 0, 2.0);
        for (uint32_t f = 1; f <= at; f++)
            mmd_anim_evaluate(a, (double)f);
    } else if (how == 1) {
        mmd_physics_attach(p, a, NULL);
        mmd_physics_preroll(p, a, (double)at, 2.0);
    } else {
        mmd_anim_evaluate(a, (double)at);
        float *w = mmd_anim_world_mut(a);
        mmd_physics_reset(p, w);
        for (int i = 0; i < 60; i++)
            mmd_physics_step(p, 1.0 / 30.0, w, w);
    }
    const float *w = mmd_anim_world(a);
    *leg = mmd_test_hang_angle(w + 16 * 1);
    double s = mmd_test_hang_angle(w + 16 * 2);
    mmd_physics_free(p);
    mmd_anim_free(a);
    mmd_motion_free(mo);
    mmd_model_free(m);
    return s;
}

/* Issue 13: a range that starts where the leg has swung through the skirt's
 * rest place. The old start (reset to the pose) leaves the skirt behind the
 * leg (flipped); the warm-up brings it where a run from frame 0 has it. */
TEST(warmup_far_from_rest_matches_continuous_run)
{
    const double deg = 180.0 / PI_F;
    for (int k = 0; k < 2; k++) {
        float swing = k ? 80.0f : 60.0f;
        double leg, leg1, leg2;
        double whole = skirt_angle(0, swing, 60, &leg);
        double warm = skirt_angle(1, swing, 60, &leg1);
        double old = skirt_angle(2, swing, 60, &leg2);
        printf("#   leg %.0f deg: run from 0: skirt %.1f, warm-up at 60: %.1f, reset at 60: %.1f\n", leg * deg,
               whole * deg, warm * deg, old * deg);
        CHECK_NEAR(leg * deg, swing, 1e-3);
        CHECK(whole > leg);              /* pushed forward, in front of the leg */
        CHECK(old < leg);                /* the defect the fixture shows */
        CHECK_NEAR(warm * deg, whole * deg, 3.0);
    }
}

/* [gravity] keys (issue 16): mmd_physics_set_gravity turns the fall of a
 * free body; the setting survives a reset (a seek, a warm-up). */
TEST(gravity_flip_changes_fall_direction)
{
    fixture f;
    fx_init(&f);
    int32_t b = fx_bone(&f, 0, 50, 0, -1);
    mmd_rigid_body *rb = fx_body(&f, b, 0, 1); /* a free sphere */
    rb->size[0] = 1;
    rb->position[1] = 50;
    rb->linear_damping = 0;
    mmd_physics *p = NULL;
    REQUIRE(mmd_physics_create(&f.m, &p, NULL) == MMD_OK);
    float world[16], out[16], body[16];
    rest_pose(&f.m, world);
    mmd_physics_reset(p, world);
    for (int i = 0; i < 15; i++) /* 0.5 s at the default 0 -98 0: y = 50 - 98/2 0.25 = 37.75 */
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    mmd_physics_body_world(p, 0, body);
    CHECK(body[13] < 40 && body[13] > 36);
    CHECK_NEAR(body[12], 0, 1e-4);
    float up[3] = {0, 98, 0};
    mmd_physics_set_gravity(p, up);
    mmd_physics_reset(p, world); /* at rest again at y 50, gravity kept */
    for (int i = 0; i < 15; i++)
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    mmd_physics_body_world(p, 0, body);
    CHECK(body[13] > 60 && body[13] < 64);
    float side[3] = {49, 0, 0}, bad[3] = {NAN, 0, 0};
    mmd_physics_set_gravity(p, side);
    mmd_physics_set_gravity(p, bad); /* ignored */
    float y0 = body[13], x0 = body[12];
    for (int i = 0; i < 15; i++) /* mid-flight: the body keeps its upward speed and now drifts +X */
        mmd_physics_step(p, 1.0 / 30.0, world, out);
    mmd_physics_body_world(p, 0, body);
    CHECK(body[12] > x0 + 5);
    CHECK(body[13] > y0 + 10);
    mmd_physics_free(p);
}

int main(void)
{
    RUN(euler_order_is_yxz);
    RUN(substeps_are_fixed_120hz);
    RUN(chain_hangs_straight_down);
    RUN(follow_bone_body_tracks_its_bone);
    RUN(bone_pos_mode_keeps_animated_position);
    RUN(toggle_kinematic_follows_bone);
    RUN(two_runs_are_bitwise_identical);
    RUN(reset_equals_fresh_world);
    RUN(rejects_non_finite_values);
    RUN(attach_failure_has_a_sentence);
    RUN(pmx21_joint_types_build_and_stay_finite);
    RUN(gene_light_600_frames_stay_bounded);
    RUN(gene_light_preroll_twice_equals_fresh);
    RUN(gene_light_two_runs_bitwise_identical);
    RUN(gene_light_far_under_the_pair_budget);
    RUN(warmup_far_from_rest_matches_continuous_run);
    RUN(gravity_flip_changes_fall_direction);
    return test_finish();
}
