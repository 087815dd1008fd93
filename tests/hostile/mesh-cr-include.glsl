// loop: Tri
// field: Area float Tri
TriArea = 1.0;#include "/etc/passwd"
