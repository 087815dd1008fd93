#version 460
// vm.vert's points lie outside the view: this never runs.
void main() {}
