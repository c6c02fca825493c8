// Runs the region that lives in a shared library.
extern "C" void plugin_work();

int main() {
  plugin_work();
}
