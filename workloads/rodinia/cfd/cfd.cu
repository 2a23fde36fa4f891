// CFD (Rodinia "CF", euler3d): explicit finite-volume solver for the 3-D compressible Euler
// equations on an unstructured mesh whose elements have 4 faces (NNB = 4), NVAR = 5 conserved
// variables (density, momentum x/y/z, density-energy), 3-stage Runge-Kutta. Written for gtlm
// from the algorithm's description.
//
// Structure-of-arrays layout with nelr = nel rounded up to a multiple of 192:
// variables[i + v*nelr], normals[i + (face + dim*4)*nelr], neighbours[i + face*nelr]
// (neighbour -1 = wing surface, -2 = far field), areas[i], step_factors[i], fluxes[...].
// All kernels: 1-D, block 192, grid nelr/192, thread = element.
//   cfd_initialize_variables: variables = the far-field state (once).
//   cfd_compute_step_factor: 0.5 / (sqrt(area) * (|velocity| + speed of sound)).
//   cfd_compute_flux: per face, central flux (average of both elements' flux contributions
//       dotted with the face normal) plus an artificial-viscosity term 0.2*0.5*|n|*(spectral
//       radii)*(U_i - U_nb); wing faces add pressure * normal to the momentum only; far-field
//       faces use the far-field state from __constant__ memory.
//   cfd_time_step(j): variables = old_variables + step_factor/(3+1-j) * flux.
// The host runs initialize once, then per iteration: old_variables = variables (a device
// copy), compute_step_factor, and 3 x (compute_flux, time_step(j)).
// Quirks kept: own-element loads coalesced, neighbour loads scattered (mesh adjacency), the
// far-field values and their flux contributions in constant memory (float3), sqrtf and
// divisions in float; padding elements nel..nelr-1 repeat the last element. No bugs needed
// fixing.

#define NDIM 3
#define NNB 4
#define RK 3
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY (VAR_MOMENTUM + NDIM)
#define GAMMA 1.4f
#define SMOOTHING 0.2f

__constant__ float ff_variable[NVAR];
__constant__ float3 ff_flux_momentum_x;
__constant__ float3 ff_flux_momentum_y;
__constant__ float3 ff_flux_momentum_z;
__constant__ float3 ff_flux_density_energy;

__device__ inline float3 velocity_of(float density, float3 momentum)
{
    return make_float3(momentum.x / density, momentum.y / density, momentum.z / density);
}

__device__ inline float speed_sqd_of(float3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }

__device__ inline float pressure_of(float density, float density_energy, float speed_sqd)
{
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

__device__ inline float sound_speed_of(float density, float pressure) { return sqrtf(GAMMA * pressure / density); }

// Flux contributions F(U) of one state: the momentum rows of the flux tensor and the energy
// flux.
__device__ inline void flux_of(float density, float3 momentum, float density_energy, float pressure, float3 v,
                               float3 &fx, float3 &fy, float3 &fz, float3 &fe)
{
    fx.x = v.x * momentum.x + pressure;
    fx.y = v.x * momentum.y;
    fx.z = v.x * momentum.z;
    fy.x = fx.y;
    fy.y = v.y * momentum.y + pressure;
    fy.z = v.y * momentum.z;
    fz.x = fx.z;
    fz.y = fy.z;
    fz.z = v.z * momentum.z + pressure;
    float de_p = density_energy + pressure;
    fe.x = v.x * de_p;
    fe.y = v.y * de_p;
    fe.z = v.z * de_p;
}

extern "C" __global__ void cfd_initialize_variables(int nelr, float *variables)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    for (int v = 0; v < NVAR; v++) variables[i + v * nelr] = ff_variable[v];
}

extern "C" __global__ void cfd_compute_step_factor(int nelr, const float *variables, const float *areas,
                                                   float *step_factors)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float density = variables[i + VAR_DENSITY * nelr];
    float3 momentum = make_float3(variables[i + (VAR_MOMENTUM + 0) * nelr], variables[i + (VAR_MOMENTUM + 1) * nelr],
                                  variables[i + (VAR_MOMENTUM + 2) * nelr]);
    float density_energy = variables[i + VAR_DENSITY_ENERGY * nelr];
    float3 v = velocity_of(density, momentum);
    float speed_sqd = speed_sqd_of(v);
    float pressure = pressure_of(density, density_energy, speed_sqd);
    float c = sound_speed_of(density, pressure);
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + c));
}

extern "C" __global__ void cfd_compute_flux(int nelr, const int *neighbours, const float *normals,
                                            const float *variables, float *fluxes)
{
    const float smoothing = SMOOTHING;
    int i = blockDim.x * blockIdx.x + threadIdx.x;

    float density_i = variables[i + VAR_DENSITY * nelr];
    float3 momentum_i = make_float3(variables[i + (VAR_MOMENTUM + 0) * nelr], variables[i + (VAR_MOMENTUM + 1) * nelr],
                                    variables[i + (VAR_MOMENTUM + 2) * nelr]);
    float density_energy_i = variables[i + VAR_DENSITY_ENERGY * nelr];
    float3 v_i = velocity_of(density_i, momentum_i);
    float speed_sqd_i = speed_sqd_of(v_i);
    float speed_i = sqrtf(speed_sqd_i);
    float pressure_i = pressure_of(density_i, density_energy_i, speed_sqd_i);
    float c_i = sound_speed_of(density_i, pressure_i);
    float3 fx_i, fy_i, fz_i, fe_i;
    flux_of(density_i, momentum_i, density_energy_i, pressure_i, v_i, fx_i, fy_i, fz_i, fe_i);

    float flux_density = 0, flux_density_energy = 0;
    float3 flux_momentum = make_float3(0, 0, 0);

    for (int j = 0; j < NNB; j++) {
        int nb = neighbours[i + j * nelr];
        float3 n = make_float3(normals[i + (j + 0 * NNB) * nelr], normals[i + (j + 1 * NNB) * nelr],
                               normals[i + (j + 2 * NNB) * nelr]);
        float normal_len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
        if (nb >= 0) {
            float density_nb = variables[nb + VAR_DENSITY * nelr];
            float3 momentum_nb = make_float3(variables[nb + (VAR_MOMENTUM + 0) * nelr],
                                             variables[nb + (VAR_MOMENTUM + 1) * nelr],
                                             variables[nb + (VAR_MOMENTUM + 2) * nelr]);
            float density_energy_nb = variables[nb + VAR_DENSITY_ENERGY * nelr];
            float3 v_nb = velocity_of(density_nb, momentum_nb);
            float speed_sqd_nb = speed_sqd_of(v_nb);
            float pressure_nb = pressure_of(density_nb, density_energy_nb, speed_sqd_nb);
            float c_nb = sound_speed_of(density_nb, pressure_nb);
            float3 fx_nb, fy_nb, fz_nb, fe_nb;
            flux_of(density_nb, momentum_nb, density_energy_nb, pressure_nb, v_nb, fx_nb, fy_nb, fz_nb, fe_nb);

            // artificial viscosity
            float factor = -normal_len * smoothing * 0.5f * (speed_i + sqrtf(speed_sqd_nb) + c_i + c_nb);
            flux_density += factor * (density_i - density_nb);
            flux_density_energy += factor * (density_energy_i - density_energy_nb);
            flux_momentum.x += factor * (momentum_i.x - momentum_nb.x);
            flux_momentum.y += factor * (momentum_i.y - momentum_nb.y);
            flux_momentum.z += factor * (momentum_i.z - momentum_nb.z);

            // central flux, one normal component at a time
            factor = 0.5f * n.x;
            flux_density += factor * (momentum_nb.x + momentum_i.x);
            flux_density_energy += factor * (fe_nb.x + fe_i.x);
            flux_momentum.x += factor * (fx_nb.x + fx_i.x);
            flux_momentum.y += factor * (fy_nb.x + fy_i.x);
            flux_momentum.z += factor * (fz_nb.x + fz_i.x);
            factor = 0.5f * n.y;
            flux_density += factor * (momentum_nb.y + momentum_i.y);
            flux_density_energy += factor * (fe_nb.y + fe_i.y);
            flux_momentum.x += factor * (fx_nb.y + fx_i.y);
            flux_momentum.y += factor * (fy_nb.y + fy_i.y);
            flux_momentum.z += factor * (fz_nb.y + fz_i.y);
            factor = 0.5f * n.z;
            flux_density += factor * (momentum_nb.z + momentum_i.z);
            flux_density_energy += factor * (fe_nb.z + fe_i.z);
            flux_momentum.x += factor * (fx_nb.z + fx_i.z);
            flux_momentum.y += factor * (fy_nb.z + fy_i.z);
            flux_momentum.z += factor * (fz_nb.z + fz_i.z);
        } else if (nb == -1) { // wing surface: pressure only
            flux_momentum.x += n.x * pressure_i;
            flux_momentum.y += n.y * pressure_i;
            flux_momentum.z += n.z * pressure_i;
        } else if (nb == -2) { // far field
            float factor = 0.5f * n.x;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 0] + momentum_i.x);
            flux_density_energy += factor * (ff_flux_density_energy.x + fe_i.x);
            flux_momentum.x += factor * (ff_flux_momentum_x.x + fx_i.x);
            flux_momentum.y += factor * (ff_flux_momentum_y.x + fy_i.x);
            flux_momentum.z += factor * (ff_flux_momentum_z.x + fz_i.x);
            factor = 0.5f * n.y;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 1] + momentum_i.y);
            flux_density_energy += factor * (ff_flux_density_energy.y + fe_i.y);
            flux_momentum.x += factor * (ff_flux_momentum_x.y + fx_i.y);
            flux_momentum.y += factor * (ff_flux_momentum_y.y + fy_i.y);
            flux_momentum.z += factor * (ff_flux_momentum_z.y + fz_i.y);
            factor = 0.5f * n.z;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 2] + momentum_i.z);
            flux_density_energy += factor * (ff_flux_density_energy.z + fe_i.z);
            flux_momentum.x += factor * (ff_flux_momentum_x.z + fx_i.z);
            flux_momentum.y += factor * (ff_flux_momentum_y.z + fy_i.z);
            flux_momentum.z += factor * (ff_flux_momentum_z.z + fz_i.z);
        }
    }
    fluxes[i + VAR_DENSITY * nelr] = flux_density;
    fluxes[i + (VAR_MOMENTUM + 0) * nelr] = flux_momentum.x;
    fluxes[i + (VAR_MOMENTUM + 1) * nelr] = flux_momentum.y;
    fluxes[i + (VAR_MOMENTUM + 2) * nelr] = flux_momentum.z;
    fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_density_energy;
}

extern "C" __global__ void cfd_time_step(int j, int nelr, const float *old_variables, float *variables,
                                         const float *step_factors, const float *fluxes)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float factor = step_factors[i] / (float)(RK + 1 - j);
    for (int v = 0; v < NVAR; v++) variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}
