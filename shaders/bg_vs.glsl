// shaders/bg_vs.glsl - the background image: a quad (4 vertices as a strip, no
// attributes) over u_rect = NDC x0, y0, x1, y1. v_uv's v is 0 at y0: the
// projection mirrors y (render.c), so NDC y0 = -1 is the image's top row.
uniform vec4 u_rect;
out vec2 v_uv;

void main()
{
    vec2 p = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    v_uv = p;
    gl_Position = vec4(mix(u_rect.xy, u_rect.zw, p), 0.0, 1.0);
}
