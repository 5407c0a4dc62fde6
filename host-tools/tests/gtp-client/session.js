// Drives a GTP engine through Sabaki's own GTP library (@sabaki/gtp), as Sabaki does,
// for the integration test gtp::sabaki_client.
//
//   node session.js ENGINE [ARG...] < steps.json > answers.json
//
// steps.json is a list of steps:
//   {"command": "play B Q16"}                 one command, its answer recorded
//   {"analyze": "lz-analyze B 1", "lines": 2}  an analysis command: its info lines are
//                                              recorded until `lines` of them arrived (0:
//                                              just its first line), then the next step's
//                                              command interrupts it, as Sabaki's does
//   {"sync": {"boardsize": 19, "komi": 6.5, "moves": [["B", "Q16"], ...]}}
//                                              Sabaki's board synchronisation
//                                              (ControllerStateTracker.sync)
// Each recorded answer is {"step", "id", "error", "content", "lines"} (`lines`: the lines
// the subscriber saw after the first). The output is one JSON list.

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

async function readStdin() {
  let chunks = []
  for await (let chunk of process.stdin) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

async function main() {
  let [engine, ...args] = process.argv.slice(2)
  let steps = await readStdin()
  let controller = new Controller(engine, args)
  let stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()
  let tracker = new ControllerStateTracker(controller)
  let out = []
  let running = null // an analysis waiting for the next command to end it

  let command = text => {
    let [first, ...rest] = text.trim().split(/\s+/)
    let id = /^\d+$/.test(first) ? +first : null
    let [name, ...cmdArgs] = id == null ? [first, ...rest] : rest
    return {id, name, args: cmdArgs}
  }
  let record = (step, response, lines) => ({
    step,
    id: response.id,
    error: response.error,
    content: response.content,
    lines
  })

  for (let step of steps) {
    if (step.command != null) {
      let p = controller.sendCommand(command(step.command))
      if (running != null) {
        out.push(await running)
        running = null
      }
      out.push(record(step, await p, []))
    } else if (step.analyze != null) {
      let lines = []
      let enough
      let seen = new Promise(resolve => (enough = resolve))
      let first = true
      let p = controller.sendCommand(command(step.analyze), ({line, end}) => {
        if (first) {
          first = false
        } else if (!end) {
          lines.push(line)
        }
        if (lines.length >= step.lines || end) enough()
      })
      if (running != null) {
        out.push(await running)
        running = null
      }
      await seen
      running = p.then(response => record(step, response, lines))
    } else if (step.sync != null) {
      if (running != null) throw new Error('sync during an analysis')
      let s = step.sync
      await tracker.sync({
        komi: s.komi,
        boardsize: [s.boardsize, s.boardsize],
        history: s.moves.map(([color, vertex]) => ({name: 'play', args: [color, vertex]}))
      })
      out.push({step, id: null, error: false, content: '', lines: []})
    }
  }
  if (running != null) {
    let p = controller.sendCommand({name: 'name'})
    out.push(await running)
    out.push(record({command: 'name'}, await p, []))
  }
  if (steps.some(s => s.command != null && /^(\d+\s+)?quit\b/.test(s.command))) {
    // The engine ends by itself after quit: wait for it.
    if (controller.process != null) {
      await new Promise(resolve => controller.once('stopped', resolve))
    }
  } else {
    await controller.stop()
  }
  process.stdout.write(JSON.stringify({answers: out, stderr}) + '\n')
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
