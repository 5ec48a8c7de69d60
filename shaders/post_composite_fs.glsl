// shaders/post_composite_fs.glsl - the glows over the frame, by the blend
// state (pass_post.c) rather than by reading the frame: with f the frame,
//   rgb = 1 - (1 - f)(1 - d) + g = (d + g) + f (1 - d),  a = max(f.a, d, g)
// i.e. Diffusion's bloom d screen-blended, then AutoLuminous glow g added.
// post_combine_fs.glsl gathered d + g and d at reduced size; one bilinear
// 8-bit tap each here (the dearest part of the effects is this full-size
// pass, and llvmpipe's 8-bit filtering is its cheapest). Dual-source
// blending: o_add is added, the frame kept by 1 - o_dim (ONE,
// ONE_MINUS_SRC1_COLOR; alpha MAX). Colour is premultiplied when the
// background is transparent, so added light also raises alpha.
uniform sampler2D u_add; // (d + g, max(d, g))
uniform sampler2D u_dim; // d (DIM 1: both glow and Diffusion)
in vec2 v_uv;
layout(location = 0, index = 0) out vec4 o_add;
layout(location = 0, index = 1) out vec4 o_dim;

void main()
{
    o_add = texture(u_add, v_uv);
#if DIM == 1
    o_dim = texture(u_dim, v_uv);
#elif DIM == 2 // Diffusion only: d is what is added
    o_dim = o_add;
#else
    o_dim = vec4(0.0);
#endif
}
