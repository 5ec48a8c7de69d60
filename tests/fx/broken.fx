// tests/fx/broken.fx - parses, but its pass names a shader it never defines:
// a warning and the effect skipped (an error with --strict-effects).
technique T {
    pass P {
        VertexShader = compile vs_3_0 NoSuchVS();
        PixelShader = compile ps_3_0 NoSuchPS();
    }
}
