// shaders/acc_vs.glsl - MMD accessory colour pass (nanoem's accessory shader,
// DESIGN I.2): per-vertex light in LH world space. a_add_uv1 carries the .x
// vertex colour. u_acc_world places the mesh (parent bone x T x R x S x 10).
in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;
in vec4 a_add_uv1;

uniform mat4 u_acc_world; // .x file units -> LH world
uniform mat4 u_world;     // LH -> GL world (mirror z)
uniform mat4 u_view;      // GL
uniform mat4 u_proj;      // GL
uniform mat4 u_shadow_vp; // LH world -> light clip (self-shadow)
uniform vec4 u_diffuse;   // face colour, alpha x opacity
uniform vec3 u_emissive;
uniform vec3 u_light_color;
uniform vec3 u_light_dir; // LH, normalised, from the light

out vec3 v_pos;           // LH world
out vec3 v_normal;        // LH world
out vec2 v_uv;
out vec2 v_sphere_uv;
out vec4 v_color;
out vec4 v_shadow;

void main()
{
    vec4 pw = u_acc_world * vec4(a_position, 1.0);
    gl_Position = u_proj * (u_view * (u_world * pw));
    vec3 n = normalize(mat3(u_acc_world) * a_normal);
    vec3 ambient = u_diffuse.rgb * (u_light_color - 0.3) + u_emissive;
    vec3 diffuse = u_diffuse.rgb * clamp(dot(n, -u_light_dir), 0.0, 1.0);
    v_color = clamp(vec4(ambient + a_add_uv1.rgb * diffuse, u_diffuse.a), 0.0, 1.0);
    vec3 nv = normalize(mat3(u_view) * (mat3(u_world) * n));
    v_sphere_uv = vec2(0.5 + 0.5 * nv.x, 0.5 - 0.5 * nv.y);
    v_pos = pw.xyz;
    v_normal = n;
    v_uv = a_uv;
    v_shadow = u_shadow_vp * pw;
}
