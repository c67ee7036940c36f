-- oltp_point_select's statement (SELECT c FROM sbtest1 WHERE id=?) for fixed ids instead of random
-- ones, so that a run through the proxy can be compared with a direct one. Each id goes through
-- the server-side prepared statement (sysbench cannot fetch its rows, only count them) and then
-- as text, whose row is printed.
-- Usage: sysbench point-select-fixed.lua --ids=1,2,3 [connection options] dump

sysbench.cmdline.options = {
   ids = {"Comma-separated ids to look up", "1"},
   table = {"Table to read", "sbtest1"},
}

local function dump()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   local sql = "SELECT c FROM " .. sysbench.opt.table .. " WHERE id="
   local stmt = con:prepare(sql .. "?")
   local id = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(id)
   for value in string.gmatch(sysbench.opt.ids, "%d+") do
      id:set(tonumber(value))
      local prepared = stmt:execute()
      print(value .. "\tprepared rows=" .. tostring(prepared.nrows))
      prepared:free()
      local rs = con:query(sql .. value)
      print(value .. "\ttext rows=" .. tostring(rs.nrows))
      for _ = 1, rs.nrows do
         print(value .. "\t" .. tostring(rs:fetch_row()[1]))
      end
      rs:free()
   end
   stmt:close()
   con:disconnect()
end

sysbench.cmdline.commands = {
   dump = {dump}
}
