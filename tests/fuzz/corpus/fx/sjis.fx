// テスト
float a < string UIName = "テス"; >;
