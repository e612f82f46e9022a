/* A tiny Bladed-style controller for tests/test_bladed.py (written for floatwind, issue 36).

   DISCON(avrSWAP, aviFAIL, accINFILE, avcOUTNAME, avcMSG), the legacy Bladed interface:
   generator torque (record 47) = K w^2 with w the measured generator speed (record 20) and K
   read from the input file; collective pitch (record 45) = 0.01 + 0.001 n dt (rad; n the calls
   of this copy, dt record 3);
   record 120 counts the calls of this copy since its first call (status 0): a controller
   state kept in a module variable, one per loaded copy. From the failure time read from the
   input file on, it reports failure (aviFAIL = -1) with a message. */
#include <stdio.h>
#include <string.h>

static double gain_k = 0.0, t_fail = 1e30;
static int n_calls = 0;
static char log_path[1024] = "";
static const int logged[] = {4, 20, 21, 24, 27, 30, 31, 32, 37, 53, 54, 60, 69, 70, 71,
                             73, 74, 75, 76, 82, 83, 84, 77, 78};

void DISCON(float *avr, int *fail, const char *infile, char *outname, char *msg) {
  int max_msg = (int)avr[48];
  if (avr[0] == 0.0f) {
    FILE *f = fopen(infile, "r");
    n_calls = 0;
    if (f == NULL || fscanf(f, "%lf %lf", &gain_k, &t_fail) != 2) {
      if (f != NULL) fclose(f);
      *fail = -1;
      snprintf(msg, max_msg, "cannot read K and the failure time from %s", infile);
      return;
    }
    if (fscanf(f, "%1023s", log_path) != 1) log_path[0] = '\0';
    fclose(f);
  }
  if (log_path[0] != '\0') {
    FILE *g = fopen(log_path, "a");
    if (g != NULL) {
      fprintf(g, "%.9g", avr[1]);
      for (size_t i = 0; i < sizeof(logged) / sizeof(logged[0]); i++)
        fprintf(g, " %.9g", avr[logged[i] - 1]);
      fputc('\n', g);
      fclose(g);
    }
  }
  n_calls += 1;
  avr[46] = (float)(gain_k * avr[19] * avr[19]);
  avr[44] = (float)(0.01 + 0.001 * n_calls * avr[2]);
  avr[34] = 1.0f;
  avr[119] = (float)n_calls;
  *fail = 0;
  if (avr[1] >= t_fail) {
    *fail = -1;
    snprintf(msg, max_msg, "test law: told to fail at t = %g", t_fail);
  }
}
