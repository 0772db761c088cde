-- Neovim's built-in LSP client on qspec-lsp, headless, through editors/nvim/qspec-lsp.lua and
-- the editors/vim filetype: open a spec, wait for its diagnostics, hover a pattern, complete a
-- module name, format the buffer. Writes one line per answer to $OUT and quits (exit code 1 if
-- an answer is missing).
--   QSPEC_LSP=... OUT=... nvim --headless -u NONE -i NONE --cmd 'set rtp^=EDITORS/vim' \
--     -c 'luafile nvim-client.lua' SPEC
local out = {}
local function say(s) table.insert(out, s) end
local function finish(code)
  vim.fn.writefile(out, os.getenv('OUT'))
  vim.cmd((code == 0 and 'qall!' or 'cquit! ' .. code))
end

vim.g.qspec_lsp_cmd = { os.getenv('QSPEC_LSP') }
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
local here = debug.getinfo(1, 'S').source:sub(2)
dofile(vim.fn.fnamemodify(here, ':p:h:h:h') .. '/editors/nvim/qspec-lsp.lua')
vim.cmd('edit') -- the file was read before the filetype autocommands existed
say('filetype=' .. vim.bo.filetype)

local ok = vim.wait(600000, function() return #vim.diagnostic.get(0) > 0 end, 50)
if not ok then say('no diagnostics'); return finish(1) end
for _, d in ipairs(vim.diagnostic.get(0)) do
  say(string.format('diagnostic %d:%d %s %s', d.lnum + 1, d.col + 1, d.user_data and d.user_data.lsp and d.user_data.lsp.code or '?', d.message))
end

local function request(method, params)
  local res = vim.lsp.buf_request_sync(0, method, params, 600000)
  for _, r in pairs(res or {}) do
    if r.result then return r.result end
  end
end
local function at(needle, delta)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then return { line = lnum - 1, character = col - 1 + delta } end
  end
end
local doc = { uri = vim.uri_from_bufnr(0) }
-- The client sends buffer changes after a short debounce, and sends any pending change before
-- a request (changetracking.flush), so each request below sees the lines just set.

local h = request('textDocument/hover', { textDocument = doc, position = at('"model.layers.*.mlp.down_proj"', 3) })
if not h then say('no hover'); return finish(1) end
say('hover: ' .. vim.split(h.contents.value, '\n')[1])

vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'protect "model.layers.1.mlp.g' })
local last = vim.api.nvim_buf_line_count(0)
local c = request('textDocument/completion', { textDocument = doc, position = { line = last - 1, character = 29 } })
if not c then say('no completion'); return finish(1) end
local labels = {}
for _, item in ipairs(c.items or c) do table.insert(labels, item.label) end
table.sort(labels)
say('completion: ' .. table.concat(labels, ' '))
vim.api.nvim_buf_set_lines(0, last - 1, last, false, {})

vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'override   type Linear {weight int8}' })
local edits = request('textDocument/formatting', { textDocument = doc, options = { tabSize = 2, insertSpaces = true } })
if not edits or #edits == 0 then say('no formatting edit'); return finish(1) end
vim.lsp.util.apply_text_edits(edits, 0, 'utf-16')
say('formatted last line: ' .. vim.api.nvim_buf_get_lines(0, -2, -1, false)[1])
finish(0)
