"""One task, one node (opencompass_h2htalk/planning/nodes.py): GPU count and weight memory, literal cases."""
import pytest

from opencompass_h2htalk.planning.nodes import NodeFitError, NodeSpec, check_fits_node


def test_a_task_as_wide_as_a_node_fits():
    check_fits_node('qwen3-235b', 8, 470.0)            # 470 GB <= 8 x 80 x 0.9 = 576 GB
    check_fits_node('api', 0, None)                    # API/CPU models use no GPU
    check_fits_node('unknown-size', 4, None)           # size unknown: only the GPU count is checked


def test_a_task_wider_than_a_node_is_refused_with_the_ways_out():
    with pytest.raises(NodeFitError) as e:
        check_fits_node('deepseek-v3-tp16', 16, 1342.0)
    msg = str(e.value)
    assert "model 'deepseek-v3-tp16' needs 16 GPUs per task" in msg and 'a node has 8' in msg
    assert 'srun -N1' in msg and 'SAPOpenAISDK' in msg and 'gpus_per_node' in msg
    check_fits_node('deepseek-v3-tp16', 16, 1342.0, NodeSpec(gpus=16, gpu_memory_gb=141))  # a 16-GPU node


def test_weights_that_do_not_fit_the_tasks_gpus_are_refused():
    with pytest.raises(NodeFitError, match=r"its weights \(about 671 GB\) do not fit the 8 GPUs of its task "
                                           r"\(8 x 80 GB x 0.9 usable = 576 GB\)"):
        check_fits_node('deepseek-v3.1', 8, 671.0)
    check_fits_node('deepseek-v3.1', 8, 671.0, NodeSpec(gpu_memory_gb=141))   # H200: 1015 GB usable
    with pytest.raises(NodeFitError, match='do not fit the 1 GPUs'):
        check_fits_node('qwen2.5-72b-tp1', 1, 144.0)


def test_a_node_needs_gpus_and_memory():
    with pytest.raises(ValueError, match='a node needs >= 1 GPU'):
        NodeSpec(gpus=0)
