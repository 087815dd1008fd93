// loop: Xyz
// field: Area float Tri
TriArea = 1.0;
