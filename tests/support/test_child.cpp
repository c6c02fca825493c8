// Placeholder replaced by the executor work.
int main() { return 0; }
