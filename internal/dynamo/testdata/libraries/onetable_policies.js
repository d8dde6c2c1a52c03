const { DynamoDBClient, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Table } = require('dynamodb-onetable')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
// An account's events, keyed by an epoch-ms number inside the text key
// (Event#${created}#${id}), sort before its policies' revisions
// (Policy#${name}_v${ver}, v0 the current copy): 130 events, more than a
// page of keys.
const schema = {
  format: 'onetable:1.1.0', version: '0.0.1',
  indexes: {primary: {hash: 'pk', sort: 'sk'}},
  models: {
    Account: {pk: {type: String, value: 'Account#${id}'}, sk: {type: String, value: '${_type}#${id}'}, id: {type: String, required: true}, name: {type: String}},
    Event: {pk: {type: String, value: 'Account#${accountId}'}, sk: {type: String, value: 'Event#${created}#${id}'}, accountId: {type: String, required: true}, id: {type: String, required: true},
      created: {type: Number, required: true}, kind: {type: String}},
    Policy: {pk: {type: String, value: 'Account#${accountId}'}, sk: {type: String, value: 'Policy#${name}_v${ver}'}, accountId: {type: String, required: true}, name: {type: String, required: true},
      ver: {type: Number, required: true}, text: {type: String}},
  },
  params: {timestamps: false},
}
;(async () => {
  const table = new Table({client, name: process.env.TABLE, schema, partial: false})
  if (!(await table.exists())) await table.createTable()
  while ((await client.send(new DescribeTableCommand({TableName: process.env.TABLE}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  const Account = table.getModel('Account'), Event = table.getModel('Event'), Policy = table.getModel('Policy')
  await Account.create({id: 'a1', name: 'Ada'})
  const start = Date.UTC(2026, 6, 20)
  for (let e = 0; e < 130; e++) await Event.create({accountId: 'a1', id: 'e' + String(e).padStart(4, '0'), created: start + e * 9 * 3600e3, kind: ['login', 'logout', 'purchase'][e % 3]})
  for (const [name, n] of [['terms', 3], ['privacy', 2]]) {
    for (let ver = 1; ver <= n; ver++) await Policy.create({accountId: 'a1', name, ver, text: name + ' ' + ver})
    await Policy.create({accountId: 'a1', name, ver: 0, text: name + ' ' + n})
  }
})().catch(e => { console.error(e); process.exit(1) })
