// shaders/post_ssaa_fs.glsl - supersampling resolve: the mean of the
// u_scale x u_scale source texels under each output pixel (a box filter, exact
// and the same on every machine). Premultiplied colour averages correctly.
uniform sampler2D u_src;
uniform int u_scale;
out vec4 o_color;

void main()
{
    ivec2 base = ivec2(gl_FragCoord.xy) * u_scale;
    vec4 s = vec4(0.0);
    for (int y = 0; y < u_scale; y++)
        for (int x = 0; x < u_scale; x++)
            s += texelFetch(u_src, base + ivec2(x, y), 0);
    o_color = s / float(u_scale * u_scale);
}
