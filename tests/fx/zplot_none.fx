// tests/fx/zplot_none.fx - MME's idiom for "this object casts no
// self-shadow": an empty zplot technique (MikuMikuShaders and others write
// `technique ZplotTec < string MMDPass = "zplot"; > {}`); every other pass
// stays the built-in one (test_render empty_zplot_casts_nothing).
technique ZplotTec < string MMDPass = "zplot"; > {}
