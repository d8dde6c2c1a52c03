const { DynamoDBClient } = require('@aws-sdk/client-dynamodb')
const { Table } = require('dynamodb-onetable')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const schema = {
  format: 'onetable:1.1.0', version: '0.0.1',
  indexes: {primary: {hash: 'pk', sort: 'sk'}, gs1: {hash: 'gs1pk', sort: 'gs1sk', project: 'all'}},
  models: {
    Patient: {pk: {type: String, value: 'patient#${id}'}, sk: {type: String, value: 'patient#${id}'}, id: {type: String, required: true}, name: {type: String}},
    Admission: {pk: {type: String, value: 'patient#${patientId}'}, sk: {type: String, value: 'admission#${admitted}#${room}'},
      // A sparse index of a room's admissions: patients hold none of it.
      gs1pk: {type: String, value: 'room#${room}'}, gs1sk: {type: String, value: 'admission#${admitted}#patient#${patientId}'},
      patientId: {type: String, required: true}, admitted: {type: Date, required: true}, room: {type: String, required: true},
      vitals: {type: Object}, notes: {type: Array}},
    // A generated ulid after the date (invoice#${date}#${id}): the date
    // orders the keys, the id (when the invoice was written) only ties.
    Invoice: {pk: {type: String, value: 'account#${accountId}'}, sk: {type: String, value: 'invoice#${date}#${id}'},
      accountId: {type: String, required: true}, id: {type: String, generate: 'ulid'}, date: {type: Date, required: true}, amount: {type: Number}},
    // Beside them, ${_type}#${when}: the time ends these keys.
    Event: {pk: {type: String, value: 'account#${accountId}'}, sk: {type: String, value: '${_type}#${when}'},
      accountId: {type: String, required: true}, when: {type: Date, required: true}, kind: {type: String}},
  },
  params: {timestamps: false},
}
;(async () => {
  const table = new Table({client, name: process.env.TABLE, schema, partial: false})
  if (!(await table.exists())) await table.createTable()
  const { DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
  while ((await client.send(new DescribeTableCommand({TableName: process.env.TABLE}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  const Patient = table.getModel('Patient'), Admission = table.getModel('Admission'), Invoice = table.getModel('Invoice'), Event = table.getModel('Event')
  await Patient.create({id: '1', name: 'Ada'})
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 60; i++) await Admission.create({patientId: '1', admitted: new Date(start + i * 25 * 3600e3), room: 'R' + (i % 9),
    vitals: {bp: {sys: 110 + i % 20, dia: 70 + i % 10}, pulse: 60 + i % 30}, notes: ['n' + i, i % 2 ? 'odd' : 'even']})
  for (let i = 0; i < 48; i++) await Invoice.create({accountId: '1', date: new Date(start + i * 25 * 3600e3), amount: 10 + i})
  for (let i = 0; i < 36; i++) await Event.create({accountId: '1', when: new Date(start + i * 50 * 3600e3), kind: i % 2 ? 'login' : 'logout'})
})().catch(e => { console.error(e); process.exit(1) })
