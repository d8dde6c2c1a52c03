// ElectroDB documents with revisions as a composite text attribute
// (rev: VERSION#0001…, VERSION#0000 the current copy), each document its
// own partition: $shop#docid_d1 holds $doc_2#rev_version#0000…0003.
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const Doc = new Entity({model: {entity: 'doc', version: '2', service: 'shop'},
  attributes: {docId: {type: 'string'}, rev: {type: 'string'}, body: {type: 'string'}},
  indexes: {byDoc: {pk: {field: 'pk', composite: ['docId']}, sk: {field: 'sk', composite: ['rev']}}}}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk'].map(n => ({AttributeName: n, AttributeType: 'S'})),
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  for (let r = 1; r <= 3; r++) await Doc.put({docId: 'd1', rev: 'VERSION#' + String(r).padStart(4, '0'), body: 'body ' + r}).go()
  await Doc.put({docId: 'd1', rev: 'VERSION#0000', body: 'body 3'}).go()
})().catch(e => { console.error(e); process.exit(1) })
