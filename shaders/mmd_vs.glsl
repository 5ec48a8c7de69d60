// shaders/mmd_vs.glsl - MMD colour pass. Positions/normals arrive in MMD's
// left-handed model space; u_world maps them to GL (z mirrored), and the
// lighting runs in LH space where the light direction and eye live.
in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;
in vec4 a_add_uv1;

uniform mat4 u_world;     // LH -> GL world (mirror z)
uniform mat4 u_view;      // GL
uniform mat4 u_proj;      // GL
uniform mat4 u_shadow_vp; // LH world -> light clip (self-shadow)

out vec3 v_pos;           // LH world
out vec3 v_normal;        // LH world
out vec3 v_normal_view;   // view space (x right, y up)
out vec2 v_uv;
out vec4 v_add_uv1;
out vec4 v_shadow;

void main()
{
    vec4 pw = u_world * vec4(a_position, 1.0);
    gl_Position = u_proj * (u_view * pw);
    v_pos = a_position;
    v_normal = a_normal;
    v_normal_view = mat3(u_view) * (mat3(u_world) * a_normal);
    v_uv = a_uv;
    v_add_uv1 = a_add_uv1;
    v_shadow = u_shadow_vp * vec4(a_position, 1.0);
}
