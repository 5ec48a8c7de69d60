// shaders/post_combine_fs.glsl - what the composite blends over the frame,
// gathered at quarter size (where the glow's emission and both chains start)
// into 8-bit targets (pass_post.c). With d Diffusion's bloom
// and g AutoLuminous glow (the emitters themselves plus their halo, the
// chain's sum from quarter size down):
//   o_add = (d + g, max(d, g))  (the frame's final colour is clamped to 0..1,
//   o_dim = d                    so nothing above 1 is lost by 8 bits)
// The composite then reads one 8-bit texel instead of the float sources.
uniform sampler2D u_glow_src; // the emission, this pass's size
uniform sampler2D u_glow;     // its halo: the chain's sum, quarter size
uniform sampler2D u_diff;     // Diffusion's sum, quarter size
uniform vec2 u_glow_k;  // x: emitter weight, y: halo weight (strength / levels)
uniform float u_diff_k; // diffusion strength x 2 / levels
in vec2 v_uv;
layout(location = 0) out vec4 o_add;
#if GLOW && DIFFUSION
layout(location = 1) out vec4 o_dim;
#endif

void main()
{
    vec3 add = vec3(0.0);
    float a = 0.0;
#if DIFFUSION
    vec3 d = clamp(texture(u_diff, v_uv).rgb * u_diff_k, 0.0, 1.0);
    add = d;
    a = max(d.r, max(d.g, d.b));
#endif
#if GLOW
    vec3 g = texelFetch(u_glow_src, ivec2(gl_FragCoord.xy), 0).rgb * u_glow_k.x + texture(u_glow, v_uv).rgb * u_glow_k.y;
    add += g;
    a = max(a, clamp(max(g.r, max(g.g, g.b)), 0.0, 1.0));
#endif
    o_add = clamp(vec4(add, a), 0.0, 1.0);
#if GLOW && DIFFUSION
    o_dim = vec4(d, 1.0);
#endif
}
