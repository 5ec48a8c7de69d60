// shaders/bg_fs.glsl - the background image's texel, blended over the clear colour.
uniform sampler2D u_tex;
in vec2 v_uv;
out vec4 o_color;

void main()
{
    o_color = texture(u_tex, v_uv);
}
