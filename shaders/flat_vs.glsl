// shaders/flat_vs.glsl - edges (hull pushed along the normal), ground shadow
// (u_world holds the planar projection) and the shadow map (depth only).
in vec3 a_position;
in vec3 a_normal;
in float a_edge;

uniform mat4 u_world;     // LH model -> target world (mirror / projection)
uniform mat4 u_viewproj;
uniform float u_edge_offset; // world units per unit of vertex edge scale

void main()
{
#if POSITION_ONLY // ground shadow and shadow map: no edge offset, so no normal or edge scale to fetch
    vec3 p = a_position;
#else
    vec3 p = a_position + a_normal * (a_edge * u_edge_offset);
#endif
    gl_Position = u_viewproj * (u_world * vec4(p, 1.0));
}
