// Ctrl-C and SIGTERM (interrupt.h).
#include "compute/io/interrupt.h"

#include <signal.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace io {

namespace {

std::atomic<int> asked{0};     // the first signal
std::atomic<int> watchers{0};  // InterruptWatch objects alive
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

void say(const char* text) {
  ssize_t ignored = ::write(2, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_signal(int sig) {
  const int saved = errno;  // the interrupted code may be about to read it
  struct Restore {
    int e;
    ~Restore() { errno = e; }
  } restore{saved};
  int expected = 0;
  if (watchers.load() > 0 && asked.compare_exchange_strong(expected, sig)) {
    say("\nvklab: interrupted: finishing what is being written (press Ctrl-C again to quit at once)\n");
    return;
  }
  // Nothing watches, or this is the second: the default action (the process ends by the signal).
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // a read or a wait goes on; the watching loop looks between steps
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupted() { return asked.load(); }

InterruptWatch::InterruptWatch() { ++watchers; }
InterruptWatch::~InterruptWatch() { --watchers; }

const char* signal_name(int sig) { return sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

}  // namespace io
