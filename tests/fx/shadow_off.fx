// tests/fx/shadow_off.fx - an object effect of our own (issue 27): only an
// empty "shadow" technique, MME's idiom (used by many effect packs) to turn
// the object's ground shadow off. No "object" technique: the model keeps its
// built-in look. tests/cli/object_effects.sh: the frame is the one rendered
// with the ground shadow off, byte for byte.
technique ShadowTec < string MMDPass = "shadow"; > { }
