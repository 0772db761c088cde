-- Neovim (0.7 or newer): qspec-lsp for every `qspec` buffer with the built-in LSP client. Put the
-- editors/vim folder on 'runtimepath' for the filetype, syntax and ftplugin (docs/editors.md),
-- then load this file from init.lua (`dofile('/path/to/qspec/editors/nvim/qspec-lsp.lua')`) or
-- copy it there. vim.g.qspec_lsp_cmd overrides the command, e.g.
--   vim.g.qspec_lsp_cmd = { '/path/to/build/bin/qspec-lsp', '--inventory', 'model.safetensors.index.json' }
-- One server runs per project root (the folder holding .git or .qlint.yaml, else the file's).
local clients = {}

local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  for _, marker in ipairs({ '.git', '.qlint.yaml' }) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return vim.fn.fnamemodify(found, ':p:h:h')
    end
  end
  return dir
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'qspec',
  callback = function(args)
    local root = root_of(vim.api.nvim_buf_get_name(args.buf))
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'qspec-lsp',
        cmd = vim.g.qspec_lsp_cmd or { 'qspec-lsp' },
        root_dir = root,
      })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
