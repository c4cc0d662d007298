// The home page's text in zh-CN and English: the nine ledgers, the course's four recommended trials, the playbook's eight questions.
import type { Experiment } from "./links";

export interface Bilingual {
  zh: string;
  en: string;
}

export interface Ledger {
  code: string;
  title: Bilingual;
  body: Bilingual;
  experiment: Experiment;
}

export const ledgers: Ledger[] = [
  {
    code: "L1", experiment: "memory",
    title: { zh: "模型状态 model state", en: "Model state" },
    body: {
      zh: "参数本身只占一小份：BF16 权重、梯度、FP32 master 副本和 Adam 的两个 moment 合起来约是每参数 16 字节。要问的是这些张量由几张卡分摊——ZeRO 沿 data parallel 切，TP、PP、EP 沿模型结构切。",
      en: "The weights are the small part: BF16 weights, gradients, an FP32 master copy and Adam's two moments come to about 16 bytes per parameter. The question is how many GPUs share each tensor: ZeRO splits along data parallel, TP, PP and EP along the model.",
    },
  },
  {
    code: "L2", experiment: "memory",
    title: { zh: "激活 activations", en: "Activations" },
    body: {
      zh: "前向留下、反向才用的中间量随 micro-batch、序列长度和层数线性变大，pipeline 里同时在飞的 micro-batch 还要再乘一次。重算、SP、FlashAttention、FP8 和 offload 各自用时间或带宽换掉一部分字节。",
      en: "What the forward leaves for the backward grows with micro-batch, sequence length and depth, and again with the micro-batches a pipeline keeps in flight. Recompute, SP, FlashAttention, FP8 and offload each trade time or bandwidth for some of those bytes.",
    },
  },
  {
    code: "L3", experiment: "step",
    title: { zh: "计算 compute", en: "Compute" },
    body: {
      zh: "每个 token 的 FLOPs 由模型形状决定，真正的时间取决于切完之后 GEMM 还剩多大：TP 切得越细，矩阵越窄，效率越低。MFU 把这一切压成一个数，而 step 面板把它拆回到各段时间。",
      en: "FLOPs per token follow from the model's shape; the time depends on how large the GEMMs stay after splitting: the finer TP cuts, the narrower the matrices and the lower the efficiency. MFU folds all of it into one number; the step panel unfolds it into segments.",
    },
  },
  {
    code: "L4", experiment: "pipeline",
    title: { zh: "流水线气泡 pipeline bubbles", en: "Pipeline bubbles" },
    body: {
      zh: "把层分给 p 个 stage 后，开头和结尾总有 GPU 在等上游或下游。更多 micro-batch、虚拟 stage、把反向拆成 B 与 W、或双向调度都能填空，但每一种都会改变同时驻留的激活与参数副本数。",
      en: "Once the layers are split into p stages, some GPUs wait for their neighbours at the start and the end. More micro-batches, virtual stages, splitting the backward into B and W, or a two-way schedule fill the gaps, and each changes the activations and parameter copies held at once.",
    },
  },
  {
    code: "L5", experiment: "comm",
    title: { zh: "集合通信 collectives", en: "Collectives" },
    body: {
      zh: "每次 AllReduce、AllGather、ReduceScatter 都有三个问题：多少字节、多频繁、走哪一级链路。同一个 TP 组放在一个节点内走 NVLink，跨节点就走慢得多的网卡；overlap 不减字节，只减暴露出来的时间。",
      en: "Every AllReduce, AllGather and ReduceScatter poses three questions: how many bytes, how often, over which link. A TP group inside one node uses NVLink, across nodes the far slower NIC; overlap removes no bytes, only the time they leave exposed.",
    },
  },
  {
    code: "L6", experiment: "expert",
    title: { zh: "专家派发 expert dispatch", en: "Expert dispatch" },
    body: {
      zh: "MoE 每层把 token 送到被路由的专家再收回来：两次 All-to-All。路由不均时，最忙的那个 EP rank 决定整层的时间，其余 rank 只能等它；冗余专家和放置策略就是为这个最慢者准备的。",
      en: "Each MoE layer sends tokens to their routed experts and brings them back: two All-to-Alls. When routing is uneven, the busiest EP rank sets the layer's time and the rest wait for it; redundant experts and placement exist for that slowest rank.",
    },
  },
  {
    code: "L7", experiment: "context",
    title: { zh: "长上下文状态 long-context state", en: "Long-context state" },
    body: {
      zh: "一条序列长到一张卡放不下时，就得把序列本身切开。Ulysses 用 All-to-All 把序列分片换成 head 分片，Ring 让 K/V 块在 rank 间轮转并藏在 attention 之下，Llama 3 的做法是先把 K/V 全部 gather；causal mask 还要求按 zig-zag 分块才能均衡。",
      en: "When one sequence is too long for a GPU, the sequence itself must be split. Ulysses turns sequence shards into head shards with All-to-All, Ring passes K/V blocks from rank to rank under attention, Llama 3 gathers all K/V first; the causal mask needs zig-zag chunks to stay balanced.",
    },
  },
  {
    code: "L8", experiment: "numerics",
    title: { zh: "数值 numerics", en: "Numerics" },
    body: {
      zh: "“用 FP8 训练”其实是五个独立的选择：存储、GEMM 输入、累加、梯度归约和优化器更新各用什么精度。每一项省下的字节或时间，都要用 scaling 和误差的代价来换。",
      en: "\"Training in FP8\" is five separate choices: the precision of storage, of GEMM inputs, of accumulation, of the gradient reduction and of the optimizer update. Each saves bytes or time and pays for it in scaling and error.",
    },
  },
  {
    code: "L9", experiment: "reliability",
    title: { zh: "可靠性 reliability", en: "Reliability" },
    body: {
      zh: "GPU 越多，两次故障之间的时间越短。checkpoint 写得太勤浪费时间，写得太少则每次故障丢掉更多进度；到上万张卡时，故障损失可以超过 pipeline 气泡，RL 的 rollout 长尾也在同一本账里。",
      en: "The more GPUs, the shorter the time between failures. Checkpointing too often wastes time, too rarely loses more work per failure; at tens of thousands of GPUs the failure loss can exceed the pipeline bubble, and RL's rollout tail belongs to the same ledger.",
    },
  },
];

export interface Trial {
  experiment: Experiment;
  /** The data-testid of the trial button inside that panel. */
  button: string;
  label: Bilingual;
  expect: Bilingual;
}

/** The course page's four recommended trials, in its order. */
export const trials: Trial[] = [
  {
    experiment: "memory", button: "trial",
    label: { zh: "70B → ZeRO-3", en: "70B → ZeRO-3" },
    expect: { zh: "看模型状态从 16P 落到 16P/N。", en: "Watch model state fall from 16P to 16P/N." },
  },
  {
    experiment: "mesh", button: "mesh-trial",
    label: { zh: "故意冲突的 device mesh", en: "A deliberately conflicting mesh" },
    expect: { zh: "TP 组被拆到几个节点上，通信时间成倍增加。", en: "TP groups spread over several nodes, and their time multiplies." },
  },
  {
    experiment: "pipeline", button: "pipe-trial",
    label: { zh: "1F1B 与 DualPipe 的参数副本", en: "1F1B vs DualPipe parameter copies" },
    expect: { zh: "气泡变小，代价是 2 份参数。", en: "A smaller bubble, paid with two parameter copies." },
  },
  {
    experiment: "comm", button: "comm-trial",
    label: { zh: "overlap 拉到 95%", en: "Overlap to 95%" },
    expect: { zh: "bytes 不变，暴露时间下降。", en: "The bytes stay, the exposed time falls." },
  },
];

export interface Question {
  question: Bilingual;
  hint: Bilingual;
  experiment: Experiment;
}

/** The playbook's eight questions, each with the experiment that answers it. */
export const questions: Question[] = [
  { experiment: "memory", question: { zh: "模型状态放不下？", en: "Model state does not fit?" },
    hint: { zh: "逐张量写出字节，再选 ZeRO 阶段或切分轴。", en: "Write the bytes out tensor by tensor, then pick a ZeRO stage or a split." } },
  { experiment: "memory", question: { zh: "激活 OOM？", en: "Activations run out of memory?" },
    hint: { zh: "减 micro-batch，试重算、SP 或 offload。", en: "Shrink the micro-batch; try recompute, SP or offload." } },
  { experiment: "step", question: { zh: "GPU 很忙，MFU 却低？", en: "Busy GPUs but low MFU?" },
    hint: { zh: "看 step 的时间分段：GEMM 形状、重算、等最慢的卡。", en: "Read the step's segments: GEMM shapes, recompute, the slowest GPU." } },
  { experiment: "comm", question: { zh: "GPU 在等网络？", en: "Waiting on the network?" },
    hint: { zh: "找出是哪个 collective、多频繁、走哪条链路。", en: "Find which collective, how often, over which link." } },
  { experiment: "pipeline", question: { zh: "流水线空白很大？", en: "Big pipeline gaps?" },
    hint: { zh: "比较 schedule 的气泡和它要的参数副本。", en: "Compare schedules' bubbles with the parameter copies they need." } },
  { experiment: "expert", question: { zh: "MoE 最忙的 rank 拖慢全体？", en: "The busiest MoE rank drags everyone?" },
    hint: { zh: "把路由不均和 All-to-All 分开看。", en: "Separate routing imbalance from the All-to-All." } },
  { experiment: "context", question: { zh: "一条长序列放不下？", en: "One long sequence does not fit?" },
    hint: { zh: "按 head 数和链路选 Ulysses、Ring、USP 或 all-gather CP。", en: "Choose Ulysses, Ring, USP or all-gather CP by heads and links." } },
  { experiment: "reliability", question: { zh: "能跑，但经常失败？", en: "It runs, but fails often?" },
    hint: { zh: "算 checkpoint 间隔、重启代价和 goodput。", en: "Work out the checkpoint interval, restart cost and goodput." } },
];
