// SPDX-License-Identifier: MIT
// fa_main.cpp — calls rdc_fa_run() of the stand-in libggml-hip.so (fattn.hip).
extern "C" int rdc_fa_run(void);
int main()
{
	return rdc_fa_run();
}
