// shaders/post_composite_fs.glsl - the frame with its glows: Diffusion's
// bloom screen-blended (1 - (1 - c)(1 - d)), then AutoLuminous glow added:
// the emitters themselves (half size) and their halo (the chain's sum from
// quarter size down). Colour is premultiplied when the background is
// transparent, so added light also raises alpha.
uniform sampler2D u_scene;
uniform sampler2D u_glow_src; // the emission, half size
uniform sampler2D u_glow;     // its halo: the chain's sum, quarter size
uniform sampler2D u_diff;
uniform vec2 u_glow_k;  // x: emitter weight, y: halo weight (strength / levels)
uniform float u_diff_k; // diffusion strength / levels
in vec2 v_uv;
out vec4 o_color;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 c = texelFetch(u_scene, p, 0);
    vec3 rgb = c.rgb;
    float a = c.a;
#if DIFFUSION
    vec3 d = clamp(texture(u_diff, v_uv).rgb * u_diff_k, 0.0, 1.0);
    rgb = 1.0 - (1.0 - rgb) * (1.0 - d);
    a = max(a, max(d.r, max(d.g, d.b)));
#endif
#if GLOW
    vec3 g = texture(u_glow_src, v_uv).rgb * u_glow_k.x + texture(u_glow, v_uv).rgb * u_glow_k.y;
    rgb += g;
    a = max(a, clamp(max(g.r, max(g.g, g.b)), 0.0, 1.0));
#endif
    o_color = clamp(vec4(rgb, a), 0.0, 1.0);
}
