// loop: Tri
// field: Area float Tri
#define W while (true)
TriArea = 1.0;
