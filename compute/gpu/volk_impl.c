/* volk's implementation, compiled once from Debian's libvulkan-volk-dev. */
#include <volk.c>
