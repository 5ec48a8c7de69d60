float a < string x = "v" >;
/* open
