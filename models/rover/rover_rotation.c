/* rover/rover_rotation.c - elementary rotations (Hughes' convention, seed
 * section 4 ref. [19]), the 3-1-2 Euler sequence of seed section 9 and unit
 * quaternions used as the singularity-free attitude state. */
#include <math.h>

#include "rover/rover.h"

void rover_c1(double a, double C[9]) {
  double c = cos(a), s = sin(a);
  C[0] = 1; C[1] = 0; C[2] = 0;
  C[3] = 0; C[4] = c; C[5] = s;
  C[6] = 0; C[7] = -s; C[8] = c;
}

void rover_c2(double a, double C[9]) {
  double c = cos(a), s = sin(a);
  C[0] = c; C[1] = 0; C[2] = -s;
  C[3] = 0; C[4] = 1; C[5] = 0;
  C[6] = s; C[7] = 0; C[8] = c;
}

void rover_c3(double a, double C[9]) {
  double c = cos(a), s = sin(a);
  C[0] = c; C[1] = s; C[2] = 0;
  C[3] = -s; C[4] = c; C[5] = 0;
  C[6] = 0; C[7] = 0; C[8] = 1;
}

void rover_matmul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] +
                     A[3 * i + 2] * B[6 + j];
}

void rover_mat_t(const double A[9], double At[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) At[3 * j + i] = A[3 * i + j];
}

void rover_matvec(const double A[9], const double x[3], double y[3]) {
  for (int i = 0; i < 3; ++i)
    y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

void rover_mattvec(const double A[9], const double x[3], double y[3]) {
  for (int i = 0; i < 3; ++i)
    y[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

/* seed section 9: C_si = C2(alpha) C1(beta) C3(gamma) */
void rover_euler312_to_c(double gamma, double beta, double alpha, double C[9]) {
  double A[9], B[9], G[9], T[9];
  rover_c2(alpha, A);
  rover_c1(beta, B);
  rover_c3(gamma, G);
  rover_matmul(B, G, T);
  rover_matmul(A, T, C);
}

/* From the product: C[1][2] = sin(beta), C[1][0] = -cos(beta) sin(gamma),
 * C[1][1] = cos(beta) cos(gamma), C[0][2] = -sin(alpha) cos(beta),
 * C[2][2] = cos(alpha) cos(beta). */
void rover_c_to_euler312(const double C[9], double *gamma, double *beta,
                         double *alpha) {
  double sb = C[5];
  if (sb > 1) sb = 1;
  if (sb < -1) sb = -1;
  *beta = asin(sb);
  *gamma = atan2(-C[3], C[4]);
  *alpha = atan2(-C[2], C[8]);
}

/* Rotation R = C^T (body to inertial) from q; C = R^T. */
void rover_quat_to_c(const double qin[4], double C[9]) {
  double n = sqrt(qin[0] * qin[0] + qin[1] * qin[1] + qin[2] * qin[2] +
                  qin[3] * qin[3]);
  double w = qin[0] / n, x = qin[1] / n, y = qin[2] / n, z = qin[3] / n;
  double R[9];
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
  rover_mat_t(R, C);
}

/* Shepperd's method on R = C^T. */
void rover_c_to_quat(const double C[9], double q[4]) {
  double R[9];
  rover_mat_t(C, R);
  double tr = R[0] + R[4] + R[8];
  if (tr > R[0] && tr > R[4] && tr > R[8]) {
    double s = 2 * sqrt(1 + tr);
    q[0] = s / 4;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = s / 4;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = s / 4;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = s / 4;
  }
}

/* Poisson's equation C' = -w^x C (seed section 5.3) for C = R^T is
 * R' = R w^x, i.e. q' = 1/2 q (x) (0, w). */
void rover_quat_rate(const double q[4], const double w[3], double qd[4]) {
  qd[0] = 0.5 * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]);
  qd[1] = 0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]);
  qd[2] = 0.5 * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]);
  qd[3] = 0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]);
}
