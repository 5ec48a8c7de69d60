// shaders/flat_fs.glsl - one flat colour (edges, ground shadow).
uniform vec4 u_color;
#if GLOW // edges and ground shadows hide the glow behind them (emission 0, their alpha)
layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_glow;
#else
out vec4 o_color;
#endif

void main()
{
    o_color = u_color;
#if GLOW
    o_glow = vec4(0.0, 0.0, 0.0, u_color.a);
#endif
}
