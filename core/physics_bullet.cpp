/* core/physics_bullet.cpp - the Bullet bridge: the only C++ in the project.
 *
 * Builds one btDiscreteDynamicsWorld per model and exposes it through the C
 * API of core/physics.h. No motion states: kinematic bodies are placed by hand
 * before each substep (Bullet derives their velocity from the move), dynamic
 * bodies are read back after the last substep of a call. Everything is in
 * MMD's left-handed model space; Bullet is handedness-agnostic.
 */
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <algorithm>
#include <vector>

#include <btBulletDynamicsCommon.h>

extern "C" {
#include "core/anim.h"
#include "core/model.h"
#include "core/status.h"
}
#include "core/physics.h"
#include "core/physics_internal.h"

namespace {

const btScalar kStep = btScalar(1.0) / btScalar(MMD_PHYSICS_STEP_HZ);
const btScalar kStopErp = btScalar(0.475);

struct Body {
    btRigidBody *rb = nullptr;
    btCollisionShape *shape = nullptr;
    int32_t bone = -1;
    uint8_t mode = 0;
    bool dynamic = false;   /* by mode and mass */
    bool kinematic = true;  /* right now (mode 0, or toggled off) */
    btScalar mass = 0;
    btVector3 inertia{0, 0, 0};
    btTransform rest, offset, inv_offset;
    btTransform prev, cur;  /* kinematic target at the previous / this call */
};

bool finite3(const float v[3])
{
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

/* R = Ry * Rx * Rz (MMD's YXZ order), plain right-hand-rule matrices applied
 * to LH coordinates, as babylon-mmd's FromEulerAngles does. */
btMatrix3x3 euler_yxz(const float r[3])
{
    const btScalar cx = std::cos(r[0]), sx = std::sin(r[0]);
    const btScalar cy = std::cos(r[1]), sy = std::sin(r[1]);
    const btScalar cz = std::cos(r[2]), sz = std::sin(r[2]);
    const btMatrix3x3 rx(1, 0, 0, 0, cx, -sx, 0, sx, cx);
    const btMatrix3x3 ry(cy, 0, sy, 0, 1, 0, -sy, 0, cy);
    const btMatrix3x3 rz(cz, -sz, 0, sz, cz, 0, 0, 0, 1);
    return ry * rx * rz;
}

btTransform pose(const float pos[3], const float rot[3])
{
    return btTransform(euler_yxz(rot), btVector3(pos[0], pos[1], pos[2]));
}

btQuaternion quat_yxz(const float r[3])
{
    btQuaternion q;
    euler_yxz(r).getRotation(q);
    return q;
}

bool finite16(const float *m)
{
    for (int i = 0; i < 16; i++)
        if (!std::isfinite(m[i]))
            return false;
    return true;
}

/* Column-major 4x4 -> rigid transform (the basis re-orthonormalised through a
 * quaternion so float drift in bone matrices never reaches the solver). */
btTransform from_gl(const float *m)
{
    btTransform t;
    t.setFromOpenGLMatrix(m);
    btQuaternion q;
    t.getBasis().getRotation(q);
    q.normalize();
    t.setRotation(q);
    return t;
}

void to_gl(const btTransform &t, float *m)
{
    t.getOpenGLMatrix(m);
}

} /* namespace */

/* The broadphase work budget (issue 14). Every overlap of two bounding boxes
 * the broadphase finds passes through this filter; the default test (group and
 * mask) decides as Bullet's own would, so a model under the budget simulates
 * bitwise as without it. Two counts bound the work a step can cost: the
 * overlaps tested (tests, reset before each substep and once before the
 * world is built: bodies that pile up, collide or not, cost one test per pair
 * each time a box moves) and the colliding pairs kept (pairs: narrowphase and
 * solver work). Past either budget the filter refuses everything and says so
 * (over); the bridge then stops simulating the model (mmd_physics_step). */
struct PairBudget : btOverlapFilterCallback {
    const btOverlappingPairCache *cache = nullptr;
    uint64_t max_pairs = 0, max_tests = 0;
    mutable uint64_t tests = 0, peak_tests = 0, peak_pairs = 0;
    mutable bool over = false;

    bool needBroadphaseCollision(btBroadphaseProxy *a, btBroadphaseProxy *b) const override
    {
        if (over)
            return false;
        if (++tests > max_tests) {
            over = true;
            return false;
        }
        peak_tests = std::max(peak_tests, tests);
        if (!(a->m_collisionFilterGroup & b->m_collisionFilterMask) ||
            !(b->m_collisionFilterGroup & a->m_collisionFilterMask))
            return false;
        const uint64_t n = (uint64_t)cache->getNumOverlappingPairs();
        if (n >= max_pairs) {
            over = true;
            return false;
        }
        peak_pairs = std::max(peak_pairs, n + 1);
        return true;
    }
};

/* Everything Bullet carries from one step to the next (broadphase pairs,
 * contact manifolds with their warm-start impulses, solver state) lives here.
 * mmd_physics_reset builds a new World rather than teleporting bodies in the
 * old one, so a reset object continues bitwise like a fresh one: a seek or a
 * second pre-roll gives the same frames as a new process (chunks). */
/* Bullet's btCollisionWorld::updateAabbs as it is, but for the stop once the
 * budget is spent: n boxes moving into one pile within one step would
 * otherwise still test their n^2/2 overlaps before the step ends. */
struct BudgetWorld : btDiscreteDynamicsWorld {
    const PairBudget *budget;
    BudgetWorld(btDispatcher *d, btBroadphaseInterface *b, btConstraintSolver *s, btCollisionConfiguration *c,
                const PairBudget *pb)
        : btDiscreteDynamicsWorld(d, b, s, c), budget(pb)
    {
    }
    void updateAabbs() override
    {
        for (int i = 0; i < m_collisionObjects.size() && !budget->over; i++) {
            btCollisionObject *o = m_collisionObjects[i];
            if (m_forceUpdateAllAabbs || o->isActive())
                updateSingleAabb(o);
        }
    }
};

struct World {
    PairBudget budget;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    BudgetWorld world{&dispatcher, &broadphase, &solver, &config, &budget};
    btStaticPlaneShape ground_shape{btVector3(0, 1, 0), 0};
    btRigidBody *ground = nullptr;
    std::vector<btRigidBody *> rbs;          /* owned; Body::rb points here */
    std::vector<btCollisionShape *> shapes;  /* owned; Body::shape points here */
    std::vector<btTypedConstraint *> joints; /* owned */

    explicit World(uint32_t bodies)
    {
        budget.cache = broadphase.getOverlappingPairCache();
        budget.max_pairs = std::min<uint64_t>(MMD_PHYSICS_PAIRS_BASE + (uint64_t)MMD_PHYSICS_PAIRS_PER_BODY * bodies,
                                              MMD_PHYSICS_PAIRS_MAX);
        budget.max_tests = MMD_PHYSICS_TESTS_PER_PAIR * budget.max_pairs;
        broadphase.getOverlappingPairCache()->setOverlapFilterCallback(&budget);
    }
    ~World()
    {
        for (btTypedConstraint *c : joints) {
            world.removeConstraint(c);
            delete c;
        }
        for (btRigidBody *rb : rbs) {
            world.removeRigidBody(rb);
            delete rb;
        }
        for (btCollisionShape *sh : shapes)
            delete sh;
        if (ground) {
            world.removeRigidBody(ground);
            delete ground;
        }
    }
    World(const World &) = delete;
    World &operator=(const World &) = delete;
};

struct mmd_physics {
    const mmd_model *model = nullptr;
    std::unique_ptr<World> w;
    std::vector<Body> bodies;
    std::vector<uint32_t> order;   /* dynamic bodies with a bone, parents first */
    std::vector<uint8_t> drives;   /* per bone: written by some dynamic body */
    std::vector<float> scratch;    /* bone_count x 16: copy of the input pose */
    double acc = 0;                /* substeps owed (fraction of one) */
    bool stopped = false;          /* over the broadphase budget: no simulation until reset */
    uint64_t peak_pairs = 0, peak_tests = 0; /* most in one step since create */
    btVector3 gravity{0, -98, 0};  /* mmd_physics_set_gravity; kept over resets */
    mmd_physics_clock clock{};

    explicit mmd_physics(const mmd_model *m) : model(m) {}
    mmd_physics(const mmd_physics &) = delete;
    mmd_physics &operator=(const mmd_physics &) = delete;
};

namespace {

mmd_status build_bodies(const mmd_model *m, World &w, std::vector<Body> &bodies, mmd_error *err)
{
    bodies.resize(m->rigid_body_count);
    w.rbs.reserve(m->rigid_body_count);
    w.shapes.reserve(m->rigid_body_count);
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        const mmd_rigid_body *rb = &m->rigid_bodies[i];
        Body &b = bodies[i];
        if (!finite3(rb->size) || !finite3(rb->position) || !finite3(rb->rotation) ||
            !std::isfinite(rb->mass) || !std::isfinite(rb->linear_damping) ||
            !std::isfinite(rb->angular_damping) || !std::isfinite(rb->restitution) ||
            !std::isfinite(rb->friction))
            return mmd_error_set(err, MMD_E_BAD_VALUE, "physics.body", i, -1,
                                 "non-finite shape, pose or material value");
        const float sx = std::fabs(rb->size[0]), sy = std::fabs(rb->size[1]),
                    sz = std::fabs(rb->size[2]);
        bool zero = false;
        switch (rb->shape) {
        case MMD_SHAPE_SPHERE:
            b.shape = new btSphereShape(sx);
            zero = sx == 0;
            break;
        case MMD_SHAPE_BOX:
            b.shape = new btBoxShape(btVector3(sx, sy, sz));
            zero = sx == 0 || sy == 0 || sz == 0;
            break;
        case MMD_SHAPE_CAPSULE:
            b.shape = new btCapsuleShape(sx, sy);
            zero = sx == 0;
            break;
        default:
            return mmd_error_set(err, MMD_E_BAD_VALUE, "physics.body", i, -1,
                                 "unknown shape %u", (unsigned)rb->shape);
        }
        w.shapes.push_back(b.shape);
        b.bone = (rb->bone >= 0 && (uint32_t)rb->bone < m->bone_count) ? rb->bone : -1;
        b.mode = rb->mode <= (uint8_t)MMD_BODY_PHYSICS_BONE_POS ? rb->mode : (uint8_t)MMD_BODY_PHYSICS;
        b.dynamic = b.mode != MMD_BODY_FOLLOW_BONE && rb->mass > 0;
        b.kinematic = !b.dynamic;
        b.mass = b.dynamic ? rb->mass : 0;
        if (b.dynamic)
            b.shape->calculateLocalInertia(b.mass, b.inertia);
        b.rest = pose(rb->position, rb->rotation);
        btTransform bone_rest = btTransform::getIdentity();
        if (b.bone >= 0) {
            const float *bp = m->bones[b.bone].position;
            bone_rest.setOrigin(btVector3(bp[0], bp[1], bp[2]));
        }
        b.offset = bone_rest.inverse() * b.rest;
        b.inv_offset = b.offset.inverse();
        b.prev = b.cur = b.rest;

        btRigidBody::btRigidBodyConstructionInfo ci(b.mass, nullptr, b.shape, b.inertia);
        ci.m_startWorldTransform = b.rest;
        ci.m_linearDamping = btClamped<btScalar>(rb->linear_damping, 0, 1);
        ci.m_angularDamping = btClamped<btScalar>(rb->angular_damping, 0, 1);
        ci.m_restitution = rb->restitution;
        ci.m_friction = rb->friction;
        ci.m_additionalDamping = true;
        b.rb = new btRigidBody(ci);
        w.rbs.push_back(b.rb);
        b.rb->setSleepingThresholds(0, 0);
        b.rb->setActivationState(DISABLE_DEACTIVATION);
        int flags = b.rb->getCollisionFlags();
        if (!b.dynamic)
            flags |= btCollisionObject::CF_KINEMATIC_OBJECT;
        if (zero)
            flags |= btCollisionObject::CF_NO_CONTACT_RESPONSE;
        b.rb->setCollisionFlags(flags);
        b.rb->setUserIndex((int)i);
        const int group = 1 << (rb->group & 15);
        w.world.addRigidBody(b.rb, group, (int)rb->no_collide_mask);
        if (w.budget.over)
            return mmd_error_set(err, MMD_E_LIMIT, "physics.body", i, -1,
                                 "%u rigid bodies overlap in more than %llu bounding-box tests or %llu "
                                 "colliding pairs (cap MMD_PHYSICS_PAIRS_*)",
                                 m->rigid_body_count, (unsigned long long)w.budget.max_tests,
                                 (unsigned long long)w.budget.max_pairs);
    }
    return MMD_OK;
}

btTypedConstraint *make_joint(const mmd_joint *j, btRigidBody &a, btRigidBody &b,
                              const btTransform &fa, const btTransform &fb)
{
    switch (j->type) {
    case MMD_JOINT_SPRING_6DOF:
    default: {
        auto *c = new btGeneric6DofSpringConstraint(a, b, fa, fb, true);
        c->setLinearLowerLimit(btVector3(j->linear_lower[0], j->linear_lower[1], j->linear_lower[2]));
        c->setLinearUpperLimit(btVector3(j->linear_upper[0], j->linear_upper[1], j->linear_upper[2]));
        c->setAngularLowerLimit(btVector3(j->angular_lower[0], j->angular_lower[1], j->angular_lower[2]));
        c->setAngularUpperLimit(btVector3(j->angular_upper[0], j->angular_upper[1], j->angular_upper[2]));
        for (int k = 0; k < 3; k++) {
            if (j->spring_linear[k] != 0) {
                c->enableSpring(k, true);
                c->setStiffness(k, j->spring_linear[k]);
            } else {
                c->enableSpring(k, false);
            }
            c->enableSpring(3 + k, true);
            c->setStiffness(3 + k, j->spring_angular[k]);
        }
        for (int k = 0; k < 6; k++)
            c->setParam(BT_CONSTRAINT_STOP_ERP, kStopErp, k);
        return c;
    }
    case MMD_JOINT_6DOF: {
        auto *c = new btGeneric6DofConstraint(a, b, fa, fb, true);
        c->setLinearLowerLimit(btVector3(j->linear_lower[0], j->linear_lower[1], j->linear_lower[2]));
        c->setLinearUpperLimit(btVector3(j->linear_upper[0], j->linear_upper[1], j->linear_upper[2]));
        c->setAngularLowerLimit(btVector3(j->angular_lower[0], j->angular_lower[1], j->angular_lower[2]));
        c->setAngularUpperLimit(btVector3(j->angular_upper[0], j->angular_upper[1], j->angular_upper[2]));
        for (int k = 0; k < 6; k++)
            c->setParam(BT_CONSTRAINT_STOP_ERP, kStopErp, k);
        return c;
    }
    case MMD_JOINT_P2P:
        /* Only the pivot matters (PMX 2.1: orientation is meaningless). */
        return new btPoint2PointConstraint(a, b, fa.getOrigin(), fb.getOrigin());
    case MMD_JOINT_CONE_TWIST: {
        /* PMX 2.1 layout: swing1 = angular_lower.z, swing2 = angular_lower.y,
         * twist = angular_lower.x; softness/bias/relaxation = spring_linear;
         * damping = linear_lower.x, fix threshold = linear_upper.x; motor on
         * when linear_lower.z != 0 with max impulse linear_upper.z and target
         * spring_angular (Euler). */
        auto *c = new btConeTwistConstraint(a, b, fa, fb);
        c->setLimit(j->angular_lower[2], j->angular_lower[1], j->angular_lower[0],
                    j->spring_linear[0], j->spring_linear[1], j->spring_linear[2]);
        c->setDamping(j->linear_lower[0]);
        c->setFixThresh(j->linear_upper[0]);
        const bool motor = j->linear_lower[2] != 0;
        c->enableMotor(motor);
        if (motor) {
            c->setMaxMotorImpulse(j->linear_upper[2]);
            c->setMotorTargetInConstraintSpace(quat_yxz(j->spring_angular));
        }
        return c;
    }
    case MMD_JOINT_SLIDER: {
        auto *c = new btSliderConstraint(a, b, fa, fb, true);
        c->setLowerLinLimit(j->linear_lower[0]);
        c->setUpperLinLimit(j->linear_upper[0]);
        c->setLowerAngLimit(j->angular_lower[0]);
        c->setUpperAngLimit(j->angular_upper[0]);
        const bool lin = j->spring_linear[0] != 0, ang = j->spring_angular[0] != 0;
        c->setPoweredLinMotor(lin);
        if (lin) {
            c->setTargetLinMotorVelocity(j->spring_linear[1]);
            c->setMaxLinMotorForce(j->spring_linear[2]);
        }
        c->setPoweredAngMotor(ang);
        if (ang) {
            c->setTargetAngMotorVelocity(j->spring_angular[1]);
            c->setMaxAngMotorForce(j->spring_angular[2]);
        }
        return c;
    }
    case MMD_JOINT_HINGE: {
        auto *c = new btHingeConstraint(a, b, fa, fb, false);
        c->setLimit(j->angular_lower[0], j->angular_upper[0], j->spring_linear[0],
                    j->spring_linear[1], j->spring_linear[2]);
        if (j->spring_angular[0] != 0)
            c->enableAngularMotor(true, j->spring_angular[1], j->spring_angular[2]);
        return c;
    }
    }
}

bool joint_finite(const mmd_joint *j)
{
    return finite3(j->position) && finite3(j->rotation) && finite3(j->linear_lower) &&
           finite3(j->linear_upper) && finite3(j->angular_lower) && finite3(j->angular_upper) &&
           finite3(j->spring_linear) && finite3(j->spring_angular);
}

mmd_status build_joints(const mmd_model *m, World &w, const std::vector<Body> &bodies, mmd_error *err)
{
    w.joints.reserve(m->joint_count);
    for (uint32_t i = 0; i < m->joint_count; i++) {
        const mmd_joint *j = &m->joints[i];
        if (!joint_finite(j))
            return mmd_error_set(err, MMD_E_BAD_VALUE, "physics.joint", i, -1,
                                 "non-finite pose, limit or spring value");
        if (j->body_a < 0 || j->body_b < 0 || (uint32_t)j->body_a >= m->rigid_body_count ||
            (uint32_t)j->body_b >= m->rigid_body_count || j->body_a == j->body_b)
            continue; /* validate rejects out-of-range; a self-joint does nothing */
        const Body &a = bodies[(size_t)j->body_a];
        const Body &b = bodies[(size_t)j->body_b];
        const btTransform jt = pose(j->position, j->rotation);
        const btTransform fa = a.rest.inverse() * jt;
        const btTransform fb = b.rest.inverse() * jt;
        btTypedConstraint *c = make_joint(j, *a.rb, *b.rb, fa, fb);
        w.joints.push_back(c);
        w.world.addConstraint(c, false);
    }
    return MMD_OK;
}

void build_order(mmd_physics *p)
{
    const mmd_model *m = p->model;
    p->drives.assign(m->bone_count, 0);
    std::vector<uint32_t> depth(m->bone_count, 0);
    for (uint32_t i = 0; i < m->bone_count; i++) {
        uint32_t d = 0;
        for (int32_t b = m->bones[i].parent; b >= 0 && (uint32_t)b < m->bone_count && d <= m->bone_count;
             b = m->bones[b].parent)
            d++;
        depth[i] = d;
    }
    for (uint32_t i = 0; i < p->bodies.size(); i++)
        if (p->bodies[i].dynamic && p->bodies[i].bone >= 0) {
            p->order.push_back(i);
            p->drives[(size_t)p->bodies[i].bone] = 1;
        }
    /* insertion sort by (depth, body index): deterministic, small n */
    for (size_t i = 1; i < p->order.size(); i++) {
        const uint32_t v = p->order[i];
        const uint32_t dv = depth[(size_t)p->bodies[v].bone];
        size_t k = i;
        while (k > 0) {
            const uint32_t u = p->order[k - 1];
            const uint32_t du = depth[(size_t)p->bodies[u].bone];
            if (du < dv || (du == dv && u < v))
                break;
            p->order[k] = u;
            k--;
        }
        p->order[k] = v;
    }
}

/* A new world for m: ground, bodies at rest, joints (throws std::bad_alloc). */
mmd_status make_world(const mmd_model *m, std::unique_ptr<World> &out, std::vector<Body> &bodies, mmd_error *err)
{
    std::unique_ptr<World> w(new World(m->rigid_body_count));
    w->world.setGravity(btVector3(0, -98, 0));
    /* ground: collides with every group a body's mask accepts */
    btRigidBody::btRigidBodyConstructionInfo gi(0, nullptr, &w->ground_shape);
    w->ground = new btRigidBody(gi);
    w->world.addRigidBody(w->ground, -1, -1);
    mmd_status s = build_bodies(m, *w, bodies, err);
    if (s == MMD_OK)
        s = build_joints(m, *w, bodies, err);
    if (s == MMD_OK)
        out = std::move(w);
    return s;
}

void place_kinematic(Body &b, const btTransform &t)
{
    b.rb->setWorldTransform(t);
}

} /* namespace */

extern "C" {

namespace {

struct Bound {
    float x0, x1, c[3], r;
    int group, mask;
    bool dynamic;
    uint32_t index;
};

/* Colliding pairs at rest: bodies whose bounding spheres overlap, at least one
 * of them dynamic, accepted by both group/mask filters. Sort and sweep on x,
 * stopping once `cap` is passed, so the count costs O(n log n + cap) and not
 * the O(n^2) a pile of bodies would. */
uint64_t rest_pairs(const mmd_model *m, uint64_t cap)
{
    std::vector<Bound> v;
    v.reserve(m->rigid_body_count);
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        const mmd_rigid_body *rb = &m->rigid_bodies[i];
        float sx = std::fabs(rb->size[0]), sy = std::fabs(rb->size[1]), sz = std::fabs(rb->size[2]);
        float r = rb->shape == MMD_SHAPE_SPHERE ? sx
                  : rb->shape == MMD_SHAPE_BOX  ? std::sqrt(sx * sx + sy * sy + sz * sz)
                                                : sx + 0.5f * sy;
        if (!std::isfinite(r) || !finite3(rb->position))
            continue; /* build_bodies refuses it */
        Bound b{rb->position[0] - r, rb->position[0] + r, {rb->position[0], rb->position[1], rb->position[2]},
                r, 1 << (rb->group & 15), (int)rb->no_collide_mask,
                rb->mode != MMD_BODY_FOLLOW_BONE && rb->mass > 0, i};
        v.push_back(b);
    }
    std::sort(v.begin(), v.end(), [](const Bound &a, const Bound &b) {
        return a.x0 < b.x0 || (a.x0 == b.x0 && a.index < b.index);
    });
    uint64_t pairs = 0;
    for (size_t i = 0; i < v.size() && pairs <= cap; i++)
        for (size_t j = i + 1; j < v.size() && v[j].x0 <= v[i].x1 && pairs <= cap; j++) {
            const Bound &a = v[i], &b = v[j];
            if (!(a.dynamic || b.dynamic) || !(a.group & b.mask) || !(b.group & a.mask))
                continue;
            float dx = a.c[0] - b.c[0], dy = a.c[1] - b.c[1], dz = a.c[2] - b.c[2];
            if (dx * dx + dy * dy + dz * dz < (a.r + b.r) * (a.r + b.r))
                pairs++;
        }
    return pairs;
}

} /* namespace */

mmd_status mmd_physics_create(const mmd_model *m, mmd_physics **out, mmd_error *err)
{
    if (!m || !out)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "physics", -1, -1, "NULL argument");
    if (m->rigid_body_count > MMD_MAX_RIGID_BODIES || m->joint_count > MMD_MAX_JOINTS)
        return mmd_error_set(err, MMD_E_LIMIT, "physics", -1, -1, "too many bodies or joints");
    try {
        uint64_t pairs = rest_pairs(m, MMD_PHYSICS_MAX_REST_PAIRS);
        if (pairs > MMD_PHYSICS_MAX_REST_PAIRS)
            return mmd_error_set(err, MMD_E_LIMIT, "physics", -1, -1,
                                 "%u rigid bodies overlap in more than %u colliding pairs at rest "
                                 "(cap MMD_PHYSICS_MAX_REST_PAIRS)",
                                 m->rigid_body_count, (unsigned)MMD_PHYSICS_MAX_REST_PAIRS);
    } catch (const std::bad_alloc &) {
        return mmd_error_set(err, MMD_E_NOMEM, "physics", -1, -1, "out of memory");
    }
    mmd_physics *p = nullptr;
    try {
        p = new mmd_physics(m);
        mmd_status s = make_world(m, p->w, p->bodies, err);
        if (s != MMD_OK) {
            delete p;
            return s;
        }
        build_order(p);
        p->peak_pairs = p->w->budget.peak_pairs;
        p->peak_tests = p->w->budget.peak_tests;
        p->scratch.resize((size_t)m->bone_count * 16);
        p->clock.forced_dt = -1;
    } catch (const std::bad_alloc &) {
        delete p;
        return mmd_error_set(err, MMD_E_NOMEM, "physics", -1, -1, "out of memory building the world");
    }
    *out = p;
    return MMD_OK;
}

void mmd_physics_free(mmd_physics *p)
{
    if (!p)
        return;
    if (p->clock.anim && p->clock.detach)
        p->clock.detach(p);
    delete p;
}

uint32_t mmd_physics_body_count(const mmd_physics *p)
{
    return (uint32_t)p->bodies.size();
}

bool mmd_physics_drives_bone(const mmd_physics *p, int32_t bone)
{
    return bone >= 0 && (size_t)bone < p->drives.size() && p->drives[(size_t)bone];
}

/* Bullet copies the world's gravity into a body when it is added: a change
 * reaches the bodies already in the world only through their own setGravity. */
static void apply_gravity(mmd_physics *p)
{
    p->w->world.setGravity(p->gravity);
    for (Body &b : p->bodies)
        if (b.rb)
            b.rb->setGravity(p->gravity);
}

void mmd_physics_set_gravity(mmd_physics *p, const float g[3])
{
    if (!p || !finite3(g))
        return;
    btVector3 v(g[0], g[1], g[2]);
    if (v == p->gravity)
        return;
    p->gravity = v;
    apply_gravity(p);
}

void mmd_physics_reset(mmd_physics *p, const float *bone_world)
{
    /* a fresh world (see World); kinematic toggles carry over */
    try {
        std::unique_ptr<World> nw;
        std::vector<Body> nb;
        if (make_world(p->model, nw, nb, nullptr) == MMD_OK) {
            std::vector<uint8_t> toggled(p->bodies.size());
            for (size_t i = 0; i < p->bodies.size(); i++)
                toggled[i] = p->bodies[i].dynamic && p->bodies[i].kinematic;
            p->bodies.swap(nb);
            p->w.swap(nw); /* the old world goes with nw */
            p->stopped = false;
            apply_gravity(p);
            for (size_t i = 0; i < toggled.size(); i++)
                if (toggled[i])
                    mmd_physics_set_body_kinematic(p, (uint32_t)i, true);
        }
    } catch (const std::bad_alloc &) {
        /* out of memory: keep the old world, teleport only */
    }
    for (Body &b : p->bodies) {
        btTransform t = b.rest;
        if (b.bone >= 0 && bone_world && finite16(bone_world + (size_t)b.bone * 16))
            t = from_gl(bone_world + (size_t)b.bone * 16) * b.offset;
        b.prev = b.cur = t;
        b.rb->setWorldTransform(t);
        b.rb->setInterpolationWorldTransform(t);
        b.rb->setLinearVelocity(btVector3(0, 0, 0));
        b.rb->setAngularVelocity(btVector3(0, 0, 0));
        b.rb->setInterpolationLinearVelocity(btVector3(0, 0, 0));
        b.rb->setInterpolationAngularVelocity(btVector3(0, 0, 0));
        b.rb->clearForces();
    }
    p->acc = 0;
}

/* n substeps of 1/120 s, kinematic bodies moved from prev to cur along the
 * way. Stops early before a substep when the attached anim is cancelled, or
 * after one that went over the broadphase budget (the model is then
 * stopped). Returns the substeps run. */
static uint32_t run_substeps(mmd_physics *p, uint32_t planned)
{
    const mmd_anim *cancel = p->clock.anim; /* its cancel flag, checked every substep */
    for (uint32_t k = 1; k <= planned; k++) {
        if (cancel && mmd_anim_cancelled(cancel))
            return k - 1;
        const btScalar f = btScalar(k) / btScalar(planned);
        for (Body &b : p->bodies) {
            if (!b.kinematic || b.bone < 0)
                continue;
            if (k == planned) {
                place_kinematic(b, b.cur);
            } else {
                btTransform t;
                t.setOrigin(b.prev.getOrigin().lerp(b.cur.getOrigin(), f));
                t.setRotation(b.prev.getRotation().slerp(b.cur.getRotation(), f));
                place_kinematic(b, t);
            }
        }
        PairBudget &bud = p->w->budget;
        bud.tests = 0;
        p->w->world.stepSimulation(kStep, 0, kStep);
        p->peak_pairs = std::max(p->peak_pairs, bud.peak_pairs);
        p->peak_tests = std::max(p->peak_tests, bud.peak_tests);
        if (bud.over) {
            p->stopped = true; /* bones follow the animation from now on */
            return k;
        }
    }
    return planned;
}

uint32_t mmd_physics_step(mmd_physics *p, double dt, const float *in, float *out)
{
    const mmd_model *m = p->model;
    const size_t nb = (size_t)m->bone_count * 16;
    if (nb)
        std::memcpy(p->scratch.data(), in, nb * sizeof(float));
    const float *old = p->scratch.data();

    /* substeps owed: whole 1/120 s ticks, the remainder carried (the epsilon
     * absorbs 1/30*120 = 3.9999999 style rounding deterministically) */
    uint32_t n = 0;
    if (std::isfinite(dt) && dt > 0) {
        p->acc += dt * MMD_PHYSICS_STEP_HZ;
        double whole = std::floor(p->acc + 1e-6);
        p->acc -= whole;
        if (p->acc < 0)
            p->acc = 0;
        n = whole > MMD_PHYSICS_MAX_SUBSTEPS ? MMD_PHYSICS_MAX_SUBSTEPS : (uint32_t)whole;
    }
    if (p->stopped)
        n = 0;
    if (n) {
        for (Body &b : p->bodies)
            if (b.kinematic && b.bone >= 0 && finite16(old + (size_t)b.bone * 16))
                b.cur = from_gl(old + (size_t)b.bone * 16) * b.offset;
        n = run_substeps(p, n);
        for (Body &b : p->bodies)
            b.prev = b.cur;
    }

    if (out != in && nb)
        std::memcpy(out, in, nb * sizeof(float));
    if (p->stopped)
        return n;
    for (uint32_t i : p->order) {
        Body &b = p->bodies[i];
        if (b.kinematic)
            continue;
        btTransform w = b.rb->getWorldTransform() * b.inv_offset;
        const size_t bo = (size_t)b.bone * 16;
        if (b.mode == MMD_BODY_PHYSICS_BONE_POS) {
            /* keep the animated position, re-based on the parent's new pose */
            btVector3 pos(old[bo + 12], old[bo + 13], old[bo + 14]);
            const int32_t par = m->bones[b.bone].parent;
            if (par >= 0 && p->drives[(size_t)par]) {
                const size_t po = (size_t)par * 16;
                if (finite16(old + po) && finite16(out + po)) {
                    btTransform op, np;
                    op.setFromOpenGLMatrix(old + po);
                    np.setFromOpenGLMatrix(out + po);
                    pos = np * (op.inverse() * pos);
                }
            }
            w.setOrigin(pos);
        }
        to_gl(w, out + bo);
    }
    return n;
}

void mmd_physics_set_body_kinematic(mmd_physics *p, uint32_t body, bool kinematic)
{
    if (body >= p->bodies.size())
        return;
    Body &b = p->bodies[body];
    if (!b.dynamic || b.kinematic == kinematic)
        return;
    b.kinematic = kinematic;
    btRigidBody *rb = b.rb;
    if (kinematic) {
        /* zero mass so joints treat it as immovable, like a mode 0 body */
        rb->setMassProps(0, btVector3(0, 0, 0));
        rb->setCollisionFlags(rb->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
        b.prev = b.cur = rb->getWorldTransform();
    } else {
        rb->setCollisionFlags(rb->getCollisionFlags() & ~btCollisionObject::CF_KINEMATIC_OBJECT);
        rb->setMassProps(b.mass, b.inertia);
        rb->updateInertiaTensor();
        rb->setGravity(p->w->world.getGravity());
    }
    rb->setActivationState(DISABLE_DEACTIVATION);
}

void mmd_physics_apply_impulse(mmd_physics *p, uint32_t body, const float velocity[3],
                               const float torque[3], bool local)
{
    if (body >= p->bodies.size())
        return;
    Body &b = p->bodies[body];
    if (b.kinematic || !finite3(velocity) || !finite3(torque))
        return;
    btVector3 v(velocity[0], velocity[1], velocity[2]);
    btVector3 t(torque[0], torque[1], torque[2]);
    if (local) {
        const btMatrix3x3 &basis = b.rb->getWorldTransform().getBasis();
        v = basis * v;
        t = basis * t;
    }
    b.rb->applyCentralImpulse(v);
    b.rb->applyTorqueImpulse(t);
}

void mmd_physics_body_world(const mmd_physics *p, uint32_t body, float out[16])
{
    if (body < p->bodies.size())
        to_gl(p->bodies[body].rb->getWorldTransform(), out);
}

void mmd_physics_body_offset(const mmd_physics *p, uint32_t body, float out[16])
{
    if (body < p->bodies.size())
        to_gl(p->bodies[body].offset, out);
}

void mmd_physics_work_of(const mmd_physics *p, mmd_physics_work *out)
{
    out->peak_pairs = p->peak_pairs;
    out->peak_tests = p->peak_tests;
    out->max_pairs = p->w->budget.max_pairs;
    out->max_tests = p->w->budget.max_tests;
    out->stopped = p->stopped;
}

mmd_physics_clock *mmd_physics_clock_of(mmd_physics *p)
{
    return &p->clock;
}

const mmd_model *mmd_physics_model(const mmd_physics *p)
{
    return p->model;
}

int32_t mmd_physics_body_bone(const mmd_physics *p, uint32_t body)
{
    return body < p->bodies.size() ? p->bodies[body].bone : -1;
}

bool mmd_physics_body_is_dynamic(const mmd_physics *p, uint32_t body)
{
    return body < p->bodies.size() && p->bodies[body].dynamic;
}

const uint32_t *mmd_physics_body_order(const mmd_physics *p, uint32_t *count)
{
    *count = (uint32_t)p->order.size();
    return p->order.data();
}

int mmd_physics_bullet_version(void)
{
    return btGetVersion();
}

} /* extern "C" */
