/*
 * GPGPU-Sim option names that gtlm knows but does not model. In compat mode
 * (-gtlm_gpgpusim_compat 1) an existing gpgpusim.config that sets them loads with one warning
 * per option; otherwise each is an error that says how to turn compat mode on.
 *
 * The names come from the option registrations of GPGPU-Sim 3.x (3.2.2) and 4.x (the
 * functional simulator, shader, memory, interconnect, power, statistics and tracing options)
 * and from Accel-Sim's trace-driven front end, and from the public configs that set them.
 * Misspellings such as "-ptx_opcode_latency_tesnor" and "-gpgpu_cache:dl1PreShared" are the
 * names GPGPU-Sim really registers. A name gtlm registers must not appear here (a unit test
 * checks this), and names GPGPU-Sim renamed for a parameter gtlm models are registered as
 * aliases by the owning block instead (e.g. -gpgpu_l2_rop_latency, -gmem_skip_L1D).
 *
 * Keep the list in strcmp (C locale) order: lookups use bsearch.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

static const char *const unmodelled[] = {
    "-accelwattch_hybrid_perfsim_CC_ACC",
    "-accelwattch_hybrid_perfsim_CYCLES",
    "-accelwattch_hybrid_perfsim_DRAM_RD",
    "-accelwattch_hybrid_perfsim_DRAM_WR",
    "-accelwattch_hybrid_perfsim_L1_RH",
    "-accelwattch_hybrid_perfsim_L1_RM",
    "-accelwattch_hybrid_perfsim_L1_WH",
    "-accelwattch_hybrid_perfsim_L1_WM",
    "-accelwattch_hybrid_perfsim_L2_RH",
    "-accelwattch_hybrid_perfsim_L2_RM",
    "-accelwattch_hybrid_perfsim_L2_WH",
    "-accelwattch_hybrid_perfsim_L2_WM",
    "-accelwattch_hybrid_perfsim_NOC",
    "-accelwattch_hybrid_perfsim_NUM_SM_IDLE",
    "-accelwattch_hybrid_perfsim_PIPE_DUTY",
    "-accelwattch_hybrid_perfsim_SHARED_ACC",
    "-accelwattch_hybrid_perfsim_VOLTAGE",
    "-accelwattch_xml_file",
    "-aggregate_power_stats",
    "-cdp_latency",
    "-checkpoint_CTA",
    "-checkpoint_CTA_t",
    "-checkpoint_insn_Y",
    "-checkpoint_kernel",
    "-checkpoint_option",
    "-dram_bnk_indexing_policy",
    "-dram_bnkgrp_indexing_policy",
    "-dram_dual_bus_interface",
    "-dram_elimnate_rw_turnaround",
    "-dram_seperate_write_queue_enable",
    "-dram_write_queue_size",
    "-dvfs_enabled",
    "-enable_ptx_file_line_stats",
    "-gpgpu_TB_launch_latency",
    "-gpgpu_cache:dl1PreShared",
    "-gpgpu_cache:dl1PrefL1",
    "-gpgpu_cache:dl1PrefShared",
    "-gpgpu_cdp_enabled",
    "-gpgpu_cflog_interval",
    "-gpgpu_clock_gated_lanes",
    "-gpgpu_clock_gated_reg_file",
    "-gpgpu_compute_capability_major",
    "-gpgpu_compute_capability_minor",
    "-gpgpu_concurrent_kernel_sm",
    "-gpgpu_enable_specialized_operand_collector",
    "-gpgpu_experimental_lib_support",
    "-gpgpu_flush_l1_cache",
    "-gpgpu_flush_l2_cache",
    "-gpgpu_heap_size_limit",
    "-gpgpu_ignore_resources_limitation",
    "-gpgpu_inst_fetch_throughput",
    "-gpgpu_l1_cache_write_ratio",
    "-gpgpu_local_mem_map",
    "-gpgpu_max_completed_cta",
    "-gpgpu_max_concurrent_kernel",
    "-gpgpu_max_cta",
    "-gpgpu_mem_addr_test",
    "-gpgpu_mem_address_mask",
    "-gpgpu_mem_unit_ports",
    "-gpgpu_memlatency_stat",
    "-gpgpu_n_cluster_ejection_buffer_size",
    "-gpgpu_n_ldst_response_buffer_size",
    "-gpgpu_num_cta_barriers",
    "-gpgpu_num_mem_units",
    "-gpgpu_occupancy_sm_number",
    "-gpgpu_operand_collector_num_in_ports_dp",
    "-gpgpu_operand_collector_num_in_ports_gen",
    "-gpgpu_operand_collector_num_in_ports_int",
    "-gpgpu_operand_collector_num_in_ports_mem",
    "-gpgpu_operand_collector_num_in_ports_sfu",
    "-gpgpu_operand_collector_num_in_ports_sp",
    "-gpgpu_operand_collector_num_in_ports_tensor_core",
    "-gpgpu_operand_collector_num_out_ports_dp",
    "-gpgpu_operand_collector_num_out_ports_gen",
    "-gpgpu_operand_collector_num_out_ports_int",
    "-gpgpu_operand_collector_num_out_ports_mem",
    "-gpgpu_operand_collector_num_out_ports_sfu",
    "-gpgpu_operand_collector_num_out_ports_sp",
    "-gpgpu_operand_collector_num_out_ports_tensor_core",
    "-gpgpu_operand_collector_num_units_tensor_core",
    "-gpgpu_perf_sim_memcpy",
    "-gpgpu_perfect_inst_const_cache",
    "-gpgpu_perfect_mem",
    "-gpgpu_ptx_convert_to_ptxplus",
    "-gpgpu_ptx_force_max_capability",
    "-gpgpu_ptx_inst_debug_file",
    "-gpgpu_ptx_inst_debug_thread_uid",
    "-gpgpu_ptx_inst_debug_to_file",
    "-gpgpu_ptx_instruction_classification",
    "-gpgpu_ptx_save_converted_ptxplus",
    "-gpgpu_ptx_sim_mode",
    "-gpgpu_ptx_use_cuobjdump",
    "-gpgpu_registers_per_block",
    "-gpgpu_runtime_pending_launch_count_limit",
    "-gpgpu_runtime_stat",
    "-gpgpu_runtime_sync_depth_limit",
    "-gpgpu_shmem_limited_broadcast",
    "-gpgpu_shmem_per_block",
    "-gpgpu_shmem_sizeDefault",
    "-gpgpu_shmem_size_PrefL1",
    "-gpgpu_shmem_size_PrefShared",
    "-gpgpu_shmem_warp_parts",
    "-gpgpu_simd_model",
    "-gpgpu_simple_dram_model",
    "-gpgpu_simt_core_sim_order",
    "-gpgpu_stack_size_limit",
    "-gpgpu_tensor_core_avail",
    "-gpgpu_warp_issue_shader",
    "-gpgpu_warpdistro_shader",
    "-gpuwattch_xml_file",
    "-hw_perf_bench_name",
    "-hw_perf_file_name",
    "-icnt_grant_cycles",
    "-icnt_verbose",
    "-inter_config_file",
    "-keep",
    "-liveness_message_freq",
    "-n_regfile_gating_group",
    "-power_per_cycle_dump",
    "-power_simulation_enabled",
    "-power_simulation_mode",
    "-power_trace_enabled",
    "-power_trace_zlevel",
    "-ptx_line_stats_filename",
    "-ptx_opcode_initiation_tensor",
    "-ptx_opcode_latency_tesnor",
    "-resume_CTA",
    "-resume_kernel",
    "-resume_option",
    "-save_embedded_ptx",
    "-specialized_unit_1",
    "-specialized_unit_2",
    "-specialized_unit_3",
    "-specialized_unit_4",
    "-specialized_unit_5",
    "-specialized_unit_6",
    "-specialized_unit_7",
    "-specialized_unit_8",
    "-steady_power_levels_enabled",
    "-steady_state_definition",
    "-trace",
    "-trace_components",
    "-trace_enabled",
    "-trace_opcode_latency_initiation_spec_op_1",
    "-trace_opcode_latency_initiation_spec_op_2",
    "-trace_opcode_latency_initiation_spec_op_3",
    "-trace_opcode_latency_initiation_spec_op_4",
    "-trace_opcode_latency_initiation_spec_op_5",
    "-trace_opcode_latency_initiation_spec_op_6",
    "-trace_opcode_latency_initiation_spec_op_7",
    "-trace_opcode_latency_initiation_spec_op_8",
    "-trace_sampling_core",
    "-trace_sampling_memory_partition",
    "-visualizer_enabled",
    "-visualizer_outputfile",
    "-visualizer_zlevel",
};

#define N_UNMODELLED (sizeof unmodelled / sizeof unmodelled[0])

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

int opt_is_unmodelled_gpgpusim(const char *name)
{
    return bsearch(name, unmodelled, N_UNMODELLED, sizeof unmodelled[0], cmp_name) != NULL;
}

const char *const *opt_unmodelled_gpgpusim_names(size_t *count)
{
    *count = N_UNMODELLED;
    return unmodelled;
}
