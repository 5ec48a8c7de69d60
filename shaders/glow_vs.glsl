// shaders/glow_vs.glsl - AutoLuminous emission pass (pass_glow.c): the scene's
// triangles again, at quarter the output size, for the emission colours only.
in vec3 a_position;
in vec2 a_uv;
in vec4 a_glow;           // per-vertex glow (MMD_ATTR_GLOW; constant 0 without marks)

uniform mat4 u_world;     // LH -> GL world (mirror z)
uniform mat4 u_viewproj;  // GL, y-flipped like the colour pass

out vec2 v_uv;
out vec4 v_glow;

void main()
{
    gl_Position = u_viewproj * (u_world * vec4(a_position, 1.0));
    v_uv = a_uv;
    v_glow = a_glow;
}
