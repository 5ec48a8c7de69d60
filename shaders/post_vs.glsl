// shaders/post_vs.glsl - one triangle over the whole target (no attributes):
// v_uv is 0..1 across the target, so pixel (x, y) reads the source at the
// same place whatever the sizes.
out vec2 v_uv;

void main()
{
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
