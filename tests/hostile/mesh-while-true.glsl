// loop: Tri
// field: Area float Tri
float z = 0.0;
while (true) { z += 1.0; }
TriArea = z;
