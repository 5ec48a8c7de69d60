// shaders/glow_fs.glsl - emission of one material (core/luminous.h): its AL
// colour x texture x strength, plus marked vertices' own glow. Materials that
// do not glow draw emission 0 with their alpha, hiding glow behind them.
in vec2 v_uv;
in vec4 v_glow;           // rgb added, a = weight of the material's glow colour

uniform sampler2D u_tex;  // the material's texture (white when none)
uniform vec3 u_glow_color;
uniform vec2 u_glow_k;    // x: material strength x model factor, y: model factor
uniform float u_alpha;    // material diffuse alpha

out vec4 o_color;

void main()
{
    vec4 t = texture(u_tex, v_uv);
    vec3 ge = u_glow_color * t.rgb;
    o_color = vec4(ge * u_glow_k.x + (v_glow.rgb + v_glow.a * ge) * u_glow_k.y, u_alpha * t.a);
}
